import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

private struct Pair: Equatable, Sendable {
  var left = 0
  var right = 0
}

private enum PairActivity: Sendable { case changed }

/// A reducer whose activities are of another type than its root store's.
private final class StrangerMethods: ReducerType {
  typealias TargetState = Int
  typealias TargetActivity = String

  func bump() -> Mutation { .init { $0 += 1 } }
}

/// `scope(_:reducer:)` with a reducer whose activity type is neither
/// `Never` nor the root store's stops the program with the message
/// `ScopedStore`'s documentation promises, in every build (in a child
/// process: a trap ends it). `.ci/run` runs it in an optimized build too.
final class ScopeMisuseTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_SCOPE_MISUSE_CHILD")

  func testAScopeWhoseActivityTheRootCannotTakeTraps() throws {
    let outcome = try Self.child.run(
      test: "VergeNeueTests.ScopeMisuseTests/testChildForeignActivity", scenario: "ForeignActivity")
    XCTAssertFalse(outcome.succeeded, outcome.stdout)
    XCTAssertTrue(
      outcome.stderr.contains(
        "scope: the reducer's TargetActivity (String) must be Never or the root store's activity type"),
      outcome.stderr)
  }

  func testChildForeignActivity() throws {
    guard Self.child.isRunning("ForeignActivity") else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    let store = Store<Pair, PairActivity>(initialState: Pair())
    let left = store.scope(\.left, reducer: StrangerMethods())
    XCTFail("did not trap: \(left.state.current)")
  }
}
