import Foundation
import Verge
import XCTest

/// Misuse that would deadlock traps with a clear message. A trap ends the
/// process, so each case runs in a child process (this same test binary,
/// running only the matching `testChild…` case) and the parent checks its
/// exit status and message.
final class MisuseTests: XCTestCase {
  private static let childVariable = "VERGE_MISUSE_CHILD"

  private func runChild(_ name: String) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["VergeTests.MisuseTests/testChild\(name)"]
    var environment = ProcessInfo.processInfo.environment
    environment[Self.childVariable] = name
    // The trap is expected: no crash backtracer. It would inherit the error
    // pipe, and one that hangs (seen under the Thread Sanitizer) keeps the
    // pipe open, so reading it to the end would never return.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let errorPipe = Pipe()
    process.standardError = errorPipe
    process.standardOutput = Pipe()
    try process.run()
    let data = errorPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  private func onlyAsChild(_ name: String) throws {
    guard ProcessInfo.processInfo.environment[Self.childVariable] == name else {
      throw XCTSkip("runs only as the child process of test\(name)")
    }
  }

  func testCommitInsideCommitTraps() throws {
    let (status, stderr) = try runChild("CommitInsideCommit")
    XCTAssertNotEqual(status, 0)
    XCTAssertTrue(stderr.contains("Verge misuse: 'commit' was called on a store from inside"), stderr)
  }

  func testReadingStateInsideCommitTraps() throws {
    let (status, stderr) = try runChild("ReadingStateInsideCommit")
    XCTAssertNotEqual(status, 0)
    XCTAssertTrue(stderr.contains("Verge misuse: 'state' was called on a store from inside"), stderr)
  }

  func testChildCommitInsideCommit() throws {
    try onlyAsChild("CommitInsideCommit")
    let store = Store<Counter, Never>(initialState: Counter())
    store.commit { _ in store.commit { $0.count = 1 } }
    XCTFail("did not trap")
  }

  func testChildReadingStateInsideCommit() throws {
    try onlyAsChild("ReadingStateInsideCommit")
    let store = Store<Counter, Never>(initialState: Counter())
    store.commit { $0.count = store.state.count + 1 }
    XCTFail("did not trap")
  }
}
