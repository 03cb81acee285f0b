import VergeNeue
import VergeTesting
import XCTest

private struct Meter: ActionReducer {
  struct State: Equatable, Sendable { var level = 0 }
  enum Action: Sendable, Equatable {
    case raise
    case raiseTwiceLater
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    if action == .raise { state.level += 1 }
    return .none
  }
}

/// A `TestStore` made with middlewares runs every step through them: a
/// step asserts the state after the middlewares, and what a middleware
/// dispatches is received like an effect's action.
final class TestStoreMiddlewareTests: XCTestCase {
  func testStepsGoThroughTheMiddlewaresAndTheirDispatchesAreReceived() async {
    let log = FailureLog()
    let rewriting = Middleware<Meter.Action, Meter.State>(name: "rewriting") { step in
      guard step.message == .raiseTwiceLater else {
        step.next()
        return
      }
      step.next(.raise)
      step.dispatch(.raise)
    }
    let store = TestStore(
      initialState: Meter.State(), reducer: Meter(), middlewares: [rewriting], reporter: log.reporter)
    await store.send(.raise) { $0.level = 1 }
    await store.send(.raiseTwiceLater) { $0.level = 2 }
    await store.receive(.raise) { $0.level = 3 }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testAnActionAMiddlewareDropsFailsItsStep() async {
    let log = FailureLog()
    let dropping = Middleware<Meter.Action, Meter.State>(name: "dropping") { _ in }
    let store = TestStore(
      initialState: Meter.State(), reducer: Meter(), middlewares: [dropping], timeout: .milliseconds(100),
      reporter: log.reporter)
    await store.send(.raise) { $0.level = 1 }
    await store.finish()
    XCTAssertEqual(log.messages.count, 1, "\(log.messages)")
    XCTAssertTrue(log.messages.first?.contains("send(.raise): the action was not reduced") ?? false, "\(log.messages)")
    XCTAssertEqual(store.state.level, 0)
  }
}
