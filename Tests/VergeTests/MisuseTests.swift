import Foundation
import Verge
import VergeTestSupport
import XCTest

/// Misuse that would deadlock traps with a clear message. A trap ends the
/// process, so each case runs in a child process (this same test binary,
/// running only the matching `testChild…` case) and the parent checks its
/// exit status and message.
final class MisuseTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_MISUSE_CHILD")

  private func runChild(_ name: String) throws -> (status: Int32, stderr: String) {
    let outcome = try Self.child.run(test: "VergeTests.MisuseTests/testChild\(name)", scenario: name)
    return (outcome.status, outcome.stderr)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
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
