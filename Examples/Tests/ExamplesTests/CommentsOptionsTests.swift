import XCTest
@testable import comments

/// The command line of `comments`: defaults, values, and refusals that name
/// the problem.
final class CommentsOptionsTests: XCTestCase {
  func testDefaultsAndValues() throws {
    let defaults = try CommentsOptions([])
    XCTAssertEqual(defaults.seed, 6)
    XCTAssertEqual(defaults.failurePercent, 20)
    XCTAssertEqual(defaults.latencyMilliseconds, 300)
    XCTAssertEqual(defaults.photoCount, 3)
    XCTAssertNil(defaults.script)
    XCTAssertFalse(defaults.showsHelp)
    let options = try CommentsOptions([
      "--seed", "9", "--failure-percent", "0", "--latency-ms", "5", "--script", "list; quit",
    ])
    XCTAssertEqual(options.seed, 9)
    XCTAssertEqual(options.failurePercent, 0)
    XCTAssertEqual(options.latencyMilliseconds, 5)
    XCTAssertEqual(options.script, "list; quit")
    XCTAssertTrue(try CommentsOptions(["-h"]).showsHelp)
    XCTAssertEqual(try CommentsOptions(["--photos", "100000"]).photoCount, 100_000)
    XCTAssertThrowsError(try CommentsOptions(["--photos", "1000001"])) { error in
      XCTAssertEqual("\(error)", "--photos '1000001' is not valid; expected a whole number from 0 to 1000000")
    }
  }

  func testAnOptionWithoutItsValueSaysItNeedsOne() {
    for option in ["--script", "-s", "--seed", "--failure-percent", "--latency-ms", "--photos", "--state-file"] {
      XCTAssertThrowsError(try CommentsOptions(["--seed", "1", option])) { error in
        XCTAssertEqual(error as? CommentsOptionsError, .missingValue(option))
        XCTAssertEqual("\(error)", "\(option) needs a value")
      }
    }
  }

  func testRefusesBadValuesAndUnknownOptions() {
    XCTAssertThrowsError(try CommentsOptions(["--failure-percent", "101"])) { error in
      XCTAssertEqual(
        error as? CommentsOptionsError,
        .badValue("--failure-percent", "101", expected: "a whole number from 0 to 100"))
    }
    XCTAssertThrowsError(try CommentsOptions(["--seed", "-1"])) { error in
      XCTAssertEqual("\(error)", "--seed '-1' is not valid; expected a whole number from 0 to 18446744073709551615")
    }
    XCTAssertThrowsError(try CommentsOptions(["--latency-ms", "soon"]))
    XCTAssertThrowsError(try CommentsOptions(["--nope"])) { error in
      XCTAssertEqual(error as? CommentsOptionsError, .unknown("--nope"))
      XCTAssertEqual("\(error)", "unknown option '--nope'")
    }
  }

  func testUsageFitsEightyColumns() {
    for line in CommentsOptions.usage.split(separator: "\n") {
      XCTAssertLessThanOrEqual(line.count, 80, "\(line)")
    }
  }
}
