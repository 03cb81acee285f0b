import XCTest

@testable import VergeBenchmarks

final class FormattingTests: XCTestCase {
  func testTimesPickAUnitWithThreeSignificantDigits() {
    XCTAssertEqual(Formatting.time(15.24), "15.2 ns")
    XCTAssertEqual(Formatting.time(357.4), "357 ns")
    XCTAssertEqual(Formatting.time(1_620), "1.62 µs")
    XCTAssertEqual(Formatting.time(1_290_000), "1.29 ms")
    XCTAssertEqual(Formatting.time(24_390_000_000), "24.39 s")
  }

  func testRatiosAndCounts() {
    XCTAssertEqual(Formatting.ratio(1.3), "1.30×")
    XCTAssertEqual(Formatting.ratio(23.64), "23.6×")
    XCTAssertEqual(Formatting.ratio(6405.2), "6405×")
    XCTAssertEqual(Formatting.ratio(0.0024), "0.0024×")
    XCTAssertEqual(Formatting.count(0), "0")
    XCTAssertEqual(Formatting.count(0.25), "0.25")
    XCTAssertEqual(Formatting.count(nil), "n/a")
  }

  func testBytes() {
    XCTAssertEqual(Formatting.bytes(0), "0 B")
    XCTAssertEqual(Formatting.bytes(800_032), "781.3 KiB")
    XCTAssertEqual(Formatting.bytes(8_000_032), "7.63 MiB")
    XCTAssertEqual(Formatting.bytes(nil), "n/a")
  }

  func testFixedRoundsAndPads() {
    XCTAssertEqual(Formatting.fixed(1.005, digits: 1), "1.0")
    XCTAssertEqual(Formatting.fixed(2.5, digits: 0), "3")
    XCTAssertEqual(Formatting.fixed(0.05, digits: 2), "0.05")
    XCTAssertEqual(Formatting.fixed(-1.25, digits: 1), "-1.3")
  }

  func testGroupedThousands() {
    XCTAssertEqual(grouped(100), "100")
    XCTAssertEqual(grouped(10_000), "10,000")
    XCTAssertEqual(grouped(1_000_000), "1,000,000")
  }
}
