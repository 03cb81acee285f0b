import Foundation
import Verge
import VergeTesting
import VergeTestSupport
import XCTest

private struct BumpFeature: ActionReducer {
  typealias State = LargeState
  enum Action: Sendable, Equatable { case bump }

  func reduce(into state: inout LargeState, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    return .none
  }
}

private final class BumpMethods: ReducerType {
  typealias TargetState = LargeState

  func bump() -> Mutation { .init { $0.count += 1 } }
}

@inline(never)
private func actionTestStore(reporter: TestFailureReporter) -> TestStore<BumpFeature> {
  TestStore(initialState: LargeState(), reducer: BumpFeature(), reporter: reporter)
}

@inline(never)
private func methodTestStore(reporter: TestFailureReporter) -> TestStore<BumpMethods> {
  TestStore(initialState: LargeState(), reducer: BumpMethods(), reporter: reporter)
}

/// Both kinds of `TestStore` over a 64 KiB state are made on a thread with
/// a small stack (512 KiB in optimized builds, `SmallStack.size` in
/// unoptimized ones), and the method reducer's takes a step there. In a
/// child process, so that a stack overflow fails the test instead of
/// ending the run.
final class SmallStackMakingTests: XCTestCase {
  func testMakingTestStores() throws {
    let (succeeded, stderr) = try SmallStack.runChild(
      test: "VergeTestingTests.SmallStackMakingTests/testChildMaking", scenario: "Making")
    XCTAssertTrue(succeeded, "failed or crashed on a \(SmallStack.size / 1024) KiB stack:\n\(stderr)")
  }

  func testChildMaking() throws {
    guard SmallStack.isChild(running: "Making") else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    let log = FailureLog()
    let counts = SharedLock<[Int]>([])
    SmallStack.run {
      let actions = actionTestStore(reporter: log.reporter)
      let methods = methodTestStore(reporter: log.reporter)
      methods.commit({ $0.bump() }) { $0.count = 1 }
      counts.withLock { $0 = [actions.state.count, methods.state.count] }
    }
    XCTAssertEqual(counts.withLock { $0 }, [0, 1])
    XCTAssertEqual(log.messages, [])
  }
}
