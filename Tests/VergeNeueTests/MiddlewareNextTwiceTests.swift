import VergeTestSupport
import XCTest

import VergeNeue

private struct PassCounter: ActionReducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Sendable { case add }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    return .none
  }
}

/// A middleware step passes its message on at most once: a second `next`
/// (on the step, or on the step and a kept copy) would reduce the message
/// twice, so it stops the process with a message, in release builds too.
/// Each trap runs in a child process.
final class MiddlewareNextTwiceTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_MIDDLEWARE_NEXT_TWICE_CHILD")
  private static let message = "Middleware at index 1 called next() twice for one message"

  func testCallingNextTwiceOnAnActionStoresStepTraps() throws { try assertTraps("ActionStore") }

  func testCallingNextOnAStepAndOnItsKeptCopyTraps() throws { try assertTraps("Kept") }

  func testCallingNextTwiceOnAReducerStoresStepTraps() throws { try assertTraps("ReducerStore") }

  func testCallingNextTwiceUnderAnObserverTraps() throws { try assertTraps("Observed") }

  /// Passes each message on once, first in the pipeline.
  private static let passing = Middleware<PassCounter.Action, PassCounter.State>(name: "passing") { step in step.next() }

  func testChildActionStore() throws {
    try onlyAsChild("ActionStore")
    let twice = Middleware<PassCounter.Action, PassCounter.State>(name: "twice") { step in
      step.next()
      step.next()
    }
    let store = ActionStore(initialState: PassCounter.State(), reducer: PassCounter(), middlewares: [Self.passing, twice])
    store.send(.add)
    XCTFail("did not trap: count \(store.state.count)")
  }

  func testChildKept() throws {
    try onlyAsChild("Kept")
    let twice = Middleware<PassCounter.Action, PassCounter.State>(name: "twice") { step in
      let later = step.keep()
      step.next()
      later.next()
    }
    let store = ActionStore(initialState: PassCounter.State(), reducer: PassCounter(), middlewares: [Self.passing, twice])
    store.send(.add)
    XCTFail("did not trap: count \(store.state.count)")
  }

  func testChildObserved() throws {
    try onlyAsChild("Observed")
    let twice = Middleware<PassCounter.Action, PassCounter.State>(name: "twice") { step in
      step.next()
      step.next()
    }
    let store = ActionStore(initialState: PassCounter.State(), reducer: PassCounter(), middlewares: [Self.passing, twice])
    // An observer sends actions through the engine's general pipeline.
    let observation = store.observeEvents { _ in }
    store.send(.add)
    XCTFail("did not trap: count \(store.state.count)")
    observation.cancel()
  }

  func testChildReducerStore() throws {
    try onlyAsChild("ReducerStore")
    let passing = Middleware<ReducerMessage<PhotoState>, PhotoState>(name: "passing") { step in step.next() }
    let twice = Middleware<ReducerMessage<PhotoState>, PhotoState>(name: "twice") { step in
      step.next()
      step.next()
    }
    let store = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }), middlewares: [passing, twice])
    store.commit { $0.increment() }
    XCTFail("did not trap: count \(store.state.count)")
  }

  /// A step that passes once, dispatch after dispatch, reduces each
  /// message once: the count of passes starts again for each dispatch.
  func testPassingOncePerDispatchReducesEachMessageOnce() async {
    let once = Middleware<PassCounter.Action, PassCounter.State>(name: "once") { step in step.next() }
    let store = ActionStore(initialState: PassCounter.State(), reducer: PassCounter(), middlewares: [Self.passing, once])
    for _ in 0..<3 { store.send(.add) }
    let kept = Middleware<PassCounter.Action, PassCounter.State>(name: "kept") { step in
      let later = step.keep()
      later.next()
    }
    let keeping = ActionStore(initialState: PassCounter.State(), reducer: PassCounter(), middlewares: [Self.passing, kept])
    for _ in 0..<3 { await keeping.send(.add).finish() }
    XCTAssertEqual(store.state.count, 3)
    XCTAssertEqual(keeping.state.count, 3)
  }

  private func assertTraps(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let outcome = try Self.child.run(test: "VergeNeueTests.MiddlewareNextTwiceTests/testChild\(name)", scenario: name)
    XCTAssertFalse(outcome.hung, "the child hung", file: file, line: line)
    XCTAssertFalse(outcome.exited, "the child exited (status \(outcome.status)) instead of trapping", file: file, line: line)
    XCTAssertTrue(outcome.stderr.contains(Self.message), outcome.stderr, file: file, line: line)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
      throw XCTSkip("runs only as the child process of a MiddlewareNextTwiceTests test")
    }
  }
}
