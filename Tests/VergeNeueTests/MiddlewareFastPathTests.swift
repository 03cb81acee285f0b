import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

/// The enum-action store's specialized pipeline: steps that middlewares keep
/// or drop, effects started through it, and sends re-entering it.
final class MiddlewareFastPathTests: XCTestCase {
  typealias Action = CounterFeature.Action
  typealias State = CounterFeature.State

  func testAKeptStepPassesLaterAndLaterSendsStillPass() {
    let kept = Collected<KeptMiddlewareStep<Action, State>>()
    let holdAdds = Middleware.holdingAdds(into: kept)
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
    let kept = Collected<KeptMiddlewareStep<Action, State>>()
    let hold = Middleware<Action, State>(name: "hold") { step in kept.append(step.keep()) }
    var store: ActionStore<CounterFeature>? = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [hold])
    store?.send(.increment)
    XCTAssertEqual(store?.state.count, 0)
    store = nil
    XCTAssertEqual(kept.all.count, 1)
    XCTAssertNil(kept.all.first?.next())
  }

  /// Steps skip re-reading the store while nothing changed; a commit made
  /// between steps (here by the middlewares themselves) must still show in
  /// the next step's `stateBefore` and in what `next()` returns.
  func testStepsSeeCommitsMadeBetweenThem() {
    let core = Collected<Store<State, Never>>()
    let seen = Collected<String>()
    let outer = Middleware<Action, State>(name: "outer") { step in
      seen.append("outer before \(step.stateBefore.count)")
      core.all.first?.commit { $0.count += 10 }
      let after = step.next()
      seen.append("outer after \(after?.count ?? -1)")
    }
    let inner = Middleware<Action, State>(name: "inner") { step in
      seen.append("inner before \(step.stateBefore.count)")
      let after = step.next()
      seen.append("inner after \(after?.count ?? -1)")
      core.all.first?.commit { $0.count += 100 }
    }
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [outer, inner])
    core.append(store.core)
    store.send(.increment)
    store.send(.increment)
    XCTAssertEqual(seen.all, [
      "outer before 0", "inner before 10", "inner after 11", "outer after 111",
      "outer before 111", "inner before 121", "inner after 122", "outer after 222",
    ])
    XCTAssertEqual(store.state.count, 222)
  }

  /// A step kept and passed on another thread reads the store there: it
  /// sees commits made since the dispatch, and its reduction.
  func testAKeptStepPassedOnAnotherThreadSeesTheCurrentState() async {
    let kept = Collected<KeptMiddlewareStep<Action, State>>()
    let hold = Middleware.holdingAdds(into: kept)
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [hold])
    store.send(.add(5))
    store.send(.increment)
    store.core.commit { $0.count += 10 }
    guard let step = kept.all.first else { return XCTFail("the step was not kept") }
    XCTAssertEqual(step.stateBefore.count, 0)
    let after = await Task.detached { step.next()?.count }.value
    XCTAssertEqual(after, 16)
    XCTAssertEqual(store.state.count, 16)
  }

  /// A middleware that keeps a step and lets it go within its call leaves
  /// nothing kept: the dispatch ends as usual and awaits the effects it
  /// started, and the next sends pass.
  func testAStepKeptAndLetGoWithinTheCallEndsTheDispatch() async {
    let gate = Gate()
    let keepBriefly = Middleware<Action, State>(name: "keep briefly") { step in
      let copy = step.keep()
      XCTAssertEqual(copy.message, step.message)
      step.next()
    }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: gate), middlewares: [keepBriefly])
    let task = store.send(.startSteps)
    gate.open()
    await task.finish()
    XCTAssertEqual(store.state.log, ["step 1", "step 2"])
    store.send(.increment)
    XCTAssertEqual(store.state.count, 1)
  }

  /// A plain-data state stays cached between dispatches; a commit made
  /// outside the pipeline in between, here or on another thread, must show
  /// in the next dispatch's `stateBefore` and in what `next()` returns.
  func testAPlainDataStateChangedBetweenDispatchesShowsInTheNext() {
    let seen = Collected<String>()
    let watch = Middleware<Tally.Action, Tally.State>(name: "watch") { step in
      let after = step.next()
      seen.append("\(step.stateBefore.count) -> \(after?.count ?? -1)")
    }
    let store = ActionStore(initialState: Tally.State(), reducer: Tally(), middlewares: [watch, .passThrough])
    store.send(.add(1))
    store.core.commit { $0.count += 10 }
    store.send(.add(1))
    let done = DispatchSemaphore(value: 0)
    Thread {
      store.core.commit { $0.count += 100 }
      done.signal()
    }.start()
    done.wait()
    store.send(.add(1))
    XCTAssertEqual(seen.all, ["0 -> 1", "11 -> 12", "112 -> 113"])
  }

  /// A state holding references is not kept past a dispatch: the next
  /// commit mutates its array in place instead of copying it.
  func testAStateWithStorageIsNotKeptPastADispatch() {
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [.passThrough, .passThrough])
    store.send(.note("first"))
    let copied = store.core.commit { ref in
      ref.modify { state -> Bool in
        let before = state.log.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        state.log[0] = "changed"
        let after = state.log.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        return before != after
      }
    }
    XCTAssertFalse(copied, "a copy of the state outlived the dispatch")
  }
}

extension MiddlewareFastPathTests {
  /// A borrowed step may be passed on from another thread while the
  /// middleware waits for it: the pipeline goes on there, and commits made
  /// in between still show.
  func testABorrowedStepPassedOnFromAnotherThreadWhileTheMiddlewareWaits() {
    let seen = Collected<String>()
    let core = Collected<Store<Tally.State, Never>>()
    let hop = Middleware<Tally.Action, Tally.State>(name: "hop") { step in
      let after = DispatchQueue(label: "hop").sync {
        core.all.first?.commit { $0.count += 10 }
        return step.next()
      }
      seen.append("hop \(step.stateBefore.count) -> \(after?.count ?? -1)")
    }
    let watch = Middleware<Tally.Action, Tally.State>(name: "watch") { step in
      seen.append("watch before \(step.stateBefore.count)")
      step.next()
    }
    let store = ActionStore(initialState: Tally.State(), reducer: Tally(), middlewares: [hop, watch])
    core.append(store.core)
    store.send(.add(1))
    store.send(.add(1))
    XCTAssertEqual(seen.all, ["watch before 10", "hop 0 -> 11", "watch before 21", "hop 11 -> 22"])
    XCTAssertEqual(store.state.count, 22)
  }
}

/// A reducer whose state is plain data (no references), which the
/// specialized pipeline keeps cached between dispatches.
struct Tally: ActionReducer {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Action: Sendable, Equatable {
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .add(let amount):
      state.count += amount
      return .none
    }
  }
}

extension Middleware {
  /// A middleware that passes every message on unchanged.
  static var passThrough: Middleware {
    Middleware(name: "pass") { step in step.next() }
  }
}
