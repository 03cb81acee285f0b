import Synchronization
import VergeNeue
import VergeTestSupport
import XCTest

struct CounterFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var count = 0
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case increment
    case add(Int)
    case note(String)
    case startSteps
    case startLongRunning
    case cancelSteps
    case fanOut
  }

  /// Effects wait on this gate, so tests decide when they go on.
  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .add(let amount):
      state.count += amount
      return .none
    case .note(let text):
      state.log.append(text)
      return .none
    case .startSteps:
      return .run { [gate] send in
        send(.note("step 1"))
        await gate.wait()
        send(.note("step 2"))
      }
      .cancellable(id: "steps")
    case .startLongRunning:
      return .run { [gate] send in
        await gate.wait()
        send(.note("long done"))
      }
      .cancellable(id: "long", cancelInFlight: true)
    case .cancelSteps:
      return .cancel(id: "steps")
    case .fanOut:
      return .merge(.send(.note("a")), .send(.note("b")))
        .merge(with: .run { send in send(.note("c")) })
    }
  }
}

extension Middleware where Message == CounterFeature.Action, State == CounterFeature.State {
  /// Keeps every `.add` step in `kept` and passes every other action on.
  static func holdingAdds(into kept: Collected<KeptMiddlewareStep<Message, State>>) -> Self {
    Middleware(name: "hold adds") { step in
      if case .add = step.message { kept.append(step.keep()) } else { step.next() }
    }
  }
}

final class ActionStoreTests: XCTestCase {
  private func makeStore(gate: Gate = Gate(), middlewares: [Middleware<CounterFeature.Action, CounterFeature.State>] = [])
    -> ActionStore<CounterFeature>
  {
    ActionStore(initialState: .init(), reducer: CounterFeature(gate: gate), middlewares: middlewares)
  }

  func testSendReducesSynchronouslyWhenIdle() {
    let store = makeStore()
    store.send(.increment)
    store.send(.add(4))
    XCTAssertEqual(store.state.count, 5)
  }

  func testActionsSentDuringAReductionAreQueuedInOrder() {
    let store = makeStore()
    // A subscriber sends while the store is reducing `.add(10)`.
    store.sinkState(dropsFirst: true) { changes in
      guard changes.hasChanged(\.count) else { return }
      store.send(.note("first"))
      // Queued, not reduced yet: `.add(10)` is still being handled.
      XCTAssertEqual(store.state.log, [])
      store.send(.note("second"))
    }
    .storeWhileSourceActive()
    store.send(.add(10))
    XCTAssertEqual(store.state.log, ["first", "second"])
  }

  func testConcurrentSendsFromManyTasksAreAllReduced() async {
    let store = makeStore()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<500 {
        group.addTask { await store.send(.increment).finish() }
      }
    }
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.count, 500)
  }

  func testEffectsSendActionsAndFinishIsAwaitable() async {
    let gate = Gate()
    let store = makeStore(gate: gate)
    let task = store.send(.startSteps)
    XCTAssertEqual(store.effectsInFlight, 1)
    gate.open()
    await task.finish()
    XCTAssertEqual(store.state.log, ["step 1", "step 2"])
    await store.waitUntilIdle()
    XCTAssertEqual(store.effectsInFlight, 0)
  }

  func testEffectCancelledMidFlightLeavesNoPartialState() async {
    let gate = Gate()
    let store = makeStore(gate: gate)
    let reached = Gate()
    store.sinkState(dropsFirst: true) { changes in
      if changes.log == ["step 1"] { reached.open() }
    }
    .storeWhileSourceActive()
    let task = store.send(.startSteps)
    await reached.wait()
    store.send(.cancelSteps)
    gate.open()
    await task.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.log, ["step 1"], "the cancelled effect must not send step 2")
  }

  func testCancelInFlightKeepsOnlyTheLatest() async {
    let gate = Gate()
    let store = makeStore(gate: gate)
    let first = store.send(.startLongRunning)
    let second = store.send(.startLongRunning)
    gate.open()
    await first.finish()
    await second.finish()
    XCTAssertEqual(store.state.log, ["long done"])
  }

  func testStoreTaskCancelCancelsItsEffects() async {
    let gate = Gate()
    let store = makeStore(gate: gate)
    let task = store.send(.startLongRunning)
    task.cancel()
    gate.open()
    await task.finish()
    XCTAssertEqual(store.state.log, [])
  }

  func testMergedEffectsAllRun() async {
    let store = makeStore()
    await store.send(.fanOut).finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.log.sorted(), ["a", "b", "c"])
    XCTAssertEqual(Array(store.state.log.prefix(2)), ["a", "b"])
  }

  func testEffectsAreCancelledWhenTheStoreGoesAway() async {
    let gate = Gate()
    weak var released: ActionStore<CounterFeature>?
    var store: ActionStore<CounterFeature>? = makeStore(gate: gate)
    let task = store!.send(.startLongRunning)
    released = store
    store = nil
    XCTAssertNil(released)
    gate.open()
    await task.finish()
  }

  func testObserverSeesReductionsWithOrigin() async {
    let store = makeStore()
    let seen = Collected<String>()
    let observation = store.observeEvents { event in
      if case .reduced(let action, let before, let after, let origin) = event {
        seen.append("\(action) \(before.log.count)->\(after.log.count) \(origin)")
      }
    }
    await store.send(.fanOut).finish()
    await store.waitUntilIdle()
    XCTAssertEqual(seen.all.first, "fanOut 0->0 send")
    XCTAssertEqual(seen.all.count, 4)
    XCTAssertTrue(seen.all.dropFirst().allSatisfy { $0.hasSuffix("effect") })
    observation.cancel()
  }
}
