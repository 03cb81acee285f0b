import Foundation
import Testing
import Verge
import VergeTestSupport
import XCTest

/// A dependency without a test value that a Swift Testing test uses off
/// its own task (a detached task, a dispatch queue, a handler on the
/// thread that commits) still fails the run: Swift Testing cannot say
/// which test was running there, so it reports the issue for the run.
///
/// The child process (this test binary, running only the Swift Testing
/// case below) is such a run; a failure in it must not fail this one.
final class DependencyOffTaskTests: XCTestCase {
  static let child = ChildProcess(variable: "VERGE_OFF_TASK_DEPENDENCY_CHILD")

  func testAMissingTestValueUsedOffTheTestsTaskFailsTheSwiftTestingRun() throws {
    let outcome = try Self.child.run(swiftTest: "aMissingTestValueUsedOffTheTestsTask", scenario: "1")
    let output = outcome.stdout + outcome.stderr
    XCTAssertTrue(output.contains("has no testValue"), output)
    XCTAssertTrue(output.contains("MeaningKey"), output)
    XCTAssertFalse(outcome.succeeded, "the child's run must fail: \(output)")
    XCTAssertFalse(outcome.hung)
  }
}

@Suite struct DependencyOffTaskChild {
  @Test func aMissingTestValueUsedOffTheTestsTask() async {
    guard DependencyOffTaskTests.child.isRunning("1") else { return }
    let store = Store<Int, Never>(initialState: 0)
    let meaning = await Task.detached { store.dependencies.meaning }.value
    // The live value is used after the failure is recorded.
    #expect(meaning == 42)
  }
}
