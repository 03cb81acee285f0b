import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

/// An action queued behind the middlewares (an event observer is watching,
/// so nothing is reduced in place) goes through the same pipeline as a
/// direct send: kept and dropped steps, effects, a middleware's dispatch,
/// each reduction seen once with its cause.
final class QueuedPipelineTests: XCTestCase {
  typealias Action = CounterFeature.Action
  typealias State = CounterFeature.State

  /// The reduced actions and their causes, as an observer sees them.
  private func observeReductions(of store: ActionStore<CounterFeature>) -> (Collected<String>, EventObservation) {
    let reduced = Collected<String>()
    let observation = store.observeLifecycle { event in
      guard case .reduced(let action, let before, let after, let cause) = event else { return }
      reduced.append("\(action) \(before.count)->\(after.count) \(cause.origin)")
    }
    return (reduced, observation)
  }

  func testAKeptStepIsReducedAndObservedWhenPassedOn() {
    let kept = Collected<KeptMiddlewareStep<Action, State>>()
    let holdAdds = Middleware.holdingAdds(into: kept)
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [holdAdds])
    let (reduced, observation) = observeReductions(of: store)
    store.send(.add(5))
    store.send(.increment)
    XCTAssertEqual(store.state.count, 1)
    XCTAssertEqual(reduced.all, ["increment 0->1 send"])
    XCTAssertEqual(kept.all.first?.next()?.count, 6)
    XCTAssertEqual(reduced.all, ["increment 0->1 send", "add(5) 1->6 send"])
    observation.cancel()
  }

  func testADroppedActionsTaskFinishes() async {
    let dropAll = Middleware<Action, State>(name: "drop") { _ in }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [dropAll])
    let (reduced, observation) = observeReductions(of: store)
    await store.send(.increment).finish()
    XCTAssertEqual(store.state.count, 0)
    XCTAssertEqual(reduced.all, [])
    observation.cancel()
  }

  func testEffectsAreAwaitedThroughTheSendsTask() async {
    let gate = Gate()
    let passThrough = Middleware<Action, State>(name: "pass") { step in step.next() }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: gate), middlewares: [passThrough])
    let (_, observation) = observeReductions(of: store)
    let task = store.send(.startSteps)
    XCTAssertEqual(store.effectsInFlight, 1)
    gate.open()
    await task.finish()
    XCTAssertEqual(store.state.log, ["step 1", "step 2"])
    observation.cancel()
  }

  func testAMiddlewaresDispatchIsReducedAfterTheActionWithItsCause() {
    let noteIncrements = Middleware<Action, State>(name: "note") { step in
      step.next()
      if case .increment = step.message { step.dispatch(.note("seen")) }
    }
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [noteIncrements])
    let (reduced, observation) = observeReductions(of: store)
    store.send(.increment)
    XCTAssertEqual(store.state.current, State(count: 1, log: ["seen"]))
    XCTAssertEqual(reduced.all, ["increment 0->1 send", "note(\"seen\") 1->1 middleware"])
    observation.cancel()
  }
}
