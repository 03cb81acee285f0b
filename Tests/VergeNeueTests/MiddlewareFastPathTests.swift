import VergeNeue
import VergeTestSupport
import XCTest

/// The enum-action store's specialized pipeline: steps that middlewares keep
/// or drop, effects started through it, and sends re-entering it.
final class MiddlewareFastPathTests: XCTestCase {
  typealias Action = CounterFeature.Action
  typealias State = CounterFeature.State

  func testAKeptStepPassesLaterAndLaterSendsStillPass() {
    let kept = Collected<MiddlewareStep<Action, State>>()
    let holdAdds = Middleware<Action, State>(name: "hold adds") { step in
      if case .add = step.message {
        kept.append(step)
      } else {
        step.next()
      }
    }
    let passThrough = Middleware<Action, State>(name: "pass") { step in step.next() }
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [passThrough, holdAdds])
    store.send(.add(5))
    XCTAssertEqual(store.state.count, 0)
    store.send(.increment)
    store.send(.increment)
    XCTAssertEqual(store.state.count, 2)
    let steps = kept.all
    XCTAssertEqual(steps.count, 1)
    let after = steps.first?.next()
    XCTAssertEqual(after?.count, 7)
    XCTAssertEqual(store.state.count, 7)
  }

  func testADroppedActionsTaskFinishesOnceTheStepIsGone() async {
    let dropAll = Middleware<Action, State>(name: "drop") { _ in }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [dropAll])
    await store.send(.increment).finish()
    XCTAssertEqual(store.state.count, 0)
  }

  func testEffectsStartedThroughMiddlewaresAreAwaitedAndCancellable() async {
    let gate = Gate()
    let passThrough = Middleware<Action, State>(name: "pass") { step in step.next() }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: gate), middlewares: [passThrough])
    let task = store.send(.startSteps)
    XCTAssertEqual(store.effectsInFlight, 1)
    gate.open()
    await task.finish()
    XCTAssertEqual(store.state.log, ["step 1", "step 2"])

    let cancelled = store.send(.startLongRunning)
    cancelled.cancel()
    await cancelled.finish()
    XCTAssertEqual(store.effectsInFlight, 0)
  }

  func testASendFromASubscriberIsReducedAfterTheCurrentAction() {
    let passThrough = Middleware<Action, State>(name: "pass") { step in step.next() }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [passThrough])
    let subscription = store.sinkState(dropsFirst: true) { changes in
      if changes.current.log.isEmpty { store.send(.note("after \(changes.current.count)")) }
    }
    store.send(.increment)
    XCTAssertEqual(store.state.current, State(count: 1, log: ["after 1"]))
    subscription.cancel()
  }

  func testAStepKeptPastTheStoreReducesNothing() {
    let kept = Collected<MiddlewareStep<Action, State>>()
    let hold = Middleware<Action, State>(name: "hold") { step in kept.append(step) }
    var store: ActionStore<CounterFeature>? = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [hold])
    store?.send(.increment)
    XCTAssertEqual(store?.state.count, 0)
    store = nil
    XCTAssertEqual(kept.all.count, 1)
    XCTAssertNil(kept.all.first?.next())
  }
}
