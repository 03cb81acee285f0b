import Foundation
import Verge
import XCTest
@testable import counter

/// `counter --state-file PATH`: a run saves the three counts, the next one
/// starts from them, and a file that cannot be used is moved aside without
/// stopping the program.
@MainActor
final class CounterStateFileTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  override func tearDown() async throws {
    directory.remove()
  }

  /// Runs `counter` with these arguments.
  private func run(_ arguments: [String]) async -> (status: Int32, output: CapturedOutput) {
    let captured = CapturedOutput()
    let status = await Shell.run(arguments, output: captured.output)
    return (status, captured)
  }

  func testAScriptedRunSavesAndTheNextRunRestores() async throws {
    let path = directory.path("counter.state")
    let first = await run(["--state-file", path, "--script", "+ + method - action + + +"])
    XCTAssertEqual(first.status, 0)
    XCTAssertEqual(first.output.errors, [])
    XCTAssertTrue(FileManager.default.fileExists(atPath: path))

    let second = await run(["--state-file", path, "--script", "+ method action"])
    XCTAssertEqual(second.status, 0)
    XCTAssertEqual(second.output.errors, [])
    XCTAssertEqual(
      second.output.lines,
      [
        "+       free    count: 3",
        "method  method  count: -1",
        "action  action  count: 3",
      ])
  }

  func testStartsFromZeroWithoutAFileAndWithoutTheOption() async throws {
    let path = directory.path("new.state")
    let withFile = await run(["--state-file", path, "--script", "+"])
    XCTAssertEqual(withFile.output.lines, ["+       free    count: 1"])
    let withoutOption = await run(["--script", "+"])
    XCTAssertEqual(withoutOption.output.lines, ["+       free    count: 1"])
  }

  func testSavesADelayedIncrementThatLandsOnAnotherThread() async throws {
    let path = directory.path("counter.state")
    let file = try CounterStateFile(path: path)
    let gate = DelayGate()
    let session = CounterSession(style: .action, counts: file.counts, delay: gate.delay)
    file.follow(session)
    gate.open()
    _ = await Shell.scriptLines(try Command.parse(script: "later wait free -"), in: session)
    try await file.finish()

    let reopened = try CounterStateFile(path: path)
    XCTAssertEqual(reopened.outcome, .restored(version: CounterStateFile.version))
    XCTAssertEqual(reopened.counts, SavedCounts(free: -1, method: 0, action: 1))
  }

  func testADamagedFileIsMovedAsideAndTheCountsStartAtZero() async throws {
    let path = directory.path("counter.state")
    let damaged = Data("not a state file\n".utf8)
    try damaged.write(to: URL(fileURLWithPath: path))

    let result = await run(["--state-file", path, "--script", "+"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.output.lines, ["+       free    count: 1"])
    XCTAssertEqual(result.output.errors.count, 1)
    let message = try XCTUnwrap(result.output.errors.first)
    XCTAssertTrue(message.contains("the state file \(path) was refused"), message)
    XCTAssertTrue(message.contains("damaged"), message)

    let aside = try XCTUnwrap(try directory.names().first { $0.hasPrefix("counter.state.refused-") })
    XCTAssertTrue(message.contains("moved to \(directory.path(aside))"), message)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory.path(aside))), damaged)

    // The run saved its own state in a new file.
    let next = await run(["--state-file", path, "--script", "+"])
    XCTAssertEqual(next.output.errors, [])
    XCTAssertEqual(next.output.lines, ["+       free    count: 2"])
  }

  func testAFileOfANewerVersionIsRefused() async throws {
    let path = directory.path("counter.state")
    let newer = Store<SavedCounts, Never>(initialState: SavedCounts())
    let persistence = try newer.persist(\.self, to: URL(fileURLWithPath: path), version: CounterStateFile.version + 1)
    newer.commit { $0.free = 40 }
    try persistence.close()

    let result = await run(["--state-file", path, "--script", "+"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.output.lines, ["+       free    count: 1"])
    let message = try XCTUnwrap(result.output.errors.first)
    XCTAssertTrue(message.contains("schema version 2, newer than the supported version 1"), message)
    XCTAssertTrue(message.contains("moved to \(path).refused-"), message)
  }

  func testTheOptionNeedsAValue() async throws {
    XCTAssertThrowsError(try Options(["--script", "+", "--state-file"])) { error in
      XCTAssertEqual(error as? OptionsError, .missingValue("--state-file"))
      XCTAssertEqual("\(error)", "--state-file needs a value")
    }
    XCTAssertThrowsError(try Options(["--state-file", ""])) { error in
      XCTAssertEqual(error as? OptionsError, .badValue("--state-file", "", expected: "the path of a file"))
    }
    let result = await run(["--script", "+", "--state-file"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.output.errors, ["counter: --state-file needs a value\nTry 'counter --help'."])
  }

  func testARefusedScriptLeavesTheFileAlone() async throws {
    let path = directory.path("counter.state")
    let result = await run(["--state-file", path, "--script", "+ jump"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(try directory.names(), [])
  }

  func testADirectoryAtThePathStopsTheRunNamingThePathAsTyped() async throws {
    let folder = directory.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    for typed in [folder, folder + "/"] {
      let result = await run(["--state-file", typed, "--script", "+"])
      XCTAssertEqual(result.status, 1, typed)
      XCTAssertEqual(result.output.lines, [], typed)
      XCTAssertEqual(result.output.errors, ["counter: the state file \(typed) is a directory, not a file"])
    }
    XCTAssertEqual(try directory.names(), ["folder"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
  }

  func testAMissingDirectoryIsNotCreatedAndStopsTheRun() async throws {
    let typed = directory.path("missing/inner/counter.state")
    let result = await run(["--state-file", typed, "--script", "+"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.output.lines, [])
    XCTAssertEqual(
      result.output.errors,
      ["counter: the state file \(typed) cannot be made: its directory \(directory.path("missing/inner")) "
        + "does not exist (counter does not create directories)"])
    XCTAssertEqual(try directory.names(), [])
  }

  func testAFileInUseStopsTheRunWithAMessage() async throws {
    let path = directory.path("counter.state")
    let holder = try CounterStateFile(path: path)
    let result = await run(["--state-file", path, "--script", "+"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.output.lines, [])
    let message = try XCTUnwrap(result.output.errors.first)
    XCTAssertTrue(message.hasPrefix("counter: cannot use the state file \(path): another store"), message)
    withExtendedLifetime(holder) {}
  }
}
