import VergeNeue
import VergeTestSupport
import XCTest

/// Effects that fail, or run until cancelled.
struct LifecycleFeature: ActionReducer {
  struct State: Equatable, Sendable { var done: [String] = [] }

  enum Action: Sendable, Equatable {
    case fail
    case runUntilCancelled(String)
    case finished(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .fail:
      return .run { _ in throw TestFailure(message: "boom") }
    case .runUntilCancelled(let name):
      return .run { send in
        // Ends only when cancelled: iterating a stream that never yields
        // stops then.
        let (stream, continuation) = AsyncStream.makeStream(of: Never.self)
        for await _ in stream {}
        continuation.finish()
        try Task.checkCancellation()
        send(.finished(name))
      }
    case .finished(let name):
      state.done.append(name)
      return .none
    }
  }
}

/// Renders lifecycle events as short lines, for comparing in order.
private func line<State>(_ event: ActionLifecycleEvent<CounterFeature.Action, State>) -> String {
  switch event {
  case .reduced(let action, _, _, let cause):
    switch cause {
    case .send: return "reduced \(action) by send"
    case .middleware: return "reduced \(action) by middleware"
    case .effect(let run, let origin):
      return "reduced \(action) by \(run.map { "\($0)" } ?? "Effect.send") of \(origin)"
    }
  case .effectStarted(let id, let origin): return "\(id) started by \(origin)"
  case .effectFinished(let id, let error): return "\(id) finished\(error.map { " with \($0)" } ?? "")"
  case .activitySent(let activity, let run, let origin):
    return "activity \(activity) by \(run.map { "\($0)" } ?? "Effect.activity") of \(origin)"
  }
}

final class ActionLifecycleTests: XCTestCase {
  func testEffectsAreAnnouncedAndReceivedActionsNameTheirOrigin() async {
    let gate = Gate()
    let store = ActionStore(initialState: CounterFeature.State(), reducer: CounterFeature(gate: gate))
    let lines = Collected<String>()
    let observation = store.observeLifecycle { lines.append(line($0)) }
    let task = store.send(.startSteps)
    gate.open()
    await task.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(
      lines.all,
      [
        "reduced startSteps by send",
        "effect #1 started by startSteps",
        "reduced note(\"step 1\") by effect #1 of startSteps",
        "reduced note(\"step 2\") by effect #1 of startSteps",
        "effect #1 finished",
      ])
    observation.cancel()
  }

  func testEffectSendNamesItsOriginWithoutATask() async {
    let store = ActionStore(initialState: CounterFeature.State(), reducer: CounterFeature(gate: Gate()))
    let lines = Collected<String>()
    let observation = store.observeLifecycle { lines.append(line($0)) }
    await store.send(.fanOut).finish()
    await store.waitUntilIdle()
    let all = lines.all
    XCTAssertEqual(all.first, "reduced fanOut by send")
    XCTAssertTrue(all.contains("reduced note(\"a\") by Effect.send of fanOut"), "\(all)")
    XCTAssertTrue(all.contains("reduced note(\"b\") by Effect.send of fanOut"), "\(all)")
    XCTAssertTrue(all.contains("reduced note(\"c\") by effect #1 of fanOut"), "\(all)")
    // The effect may end before another thread reduces what it sent, so
    // only the count is fixed here.
    XCTAssertEqual(all.filter { $0 == "effect #1 finished" }.count, 1, "\(all)")
    observation.cancel()
  }

  func testEffectFinishedCarriesTheError() async {
    let store = ActionStore(initialState: LifecycleFeature.State(), reducer: LifecycleFeature())
    let errors = Collected<String>()
    let observation = store.observeLifecycle { event in
      if case .effectFinished(_, let error) = event { errors.append(error.map { "\($0)" } ?? "none") }
    }
    await store.send(.fail).finish()
    XCTAssertEqual(errors.all, ["\(TestFailure(message: "boom"))"])
    observation.cancel()
  }

  func testCancelAllEffectsEndsEveryEffect() async {
    let store = ActionStore(initialState: LifecycleFeature.State(), reducer: LifecycleFeature())
    let finished = Collected<Bool>()
    let observation = store.observeLifecycle { event in
      if case .effectFinished(_, let error) = event { finished.append(error is CancellationError) }
    }
    store.send(.runUntilCancelled("a"))
    store.send(.runUntilCancelled("b"))
    XCTAssertEqual(store.effectsInFlight, 2)
    store.cancelAllEffects()
    await store.waitUntilIdle()
    XCTAssertEqual(store.effectsInFlight, 0)
    XCTAssertEqual(finished.all, [true, true])
    XCTAssertEqual(store.state.done, [], "cancelled effects send nothing")
    observation.cancel()
  }

  func testScopedActionStoresHaveTheSameHooks() async throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let gate = Gate()
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: gate))
    let started = Collected<String>()
    let observation = profile.observeLifecycle { event in
      if case .effectStarted(let id, let origin) = event { started.append("\(id) \(origin)") }
    }
    profile.send(.renameAfterGate("x"))
    XCTAssertEqual(started.all, ["effect #1 renameAfterGate(\"x\")"])
    profile.cancelAllEffects()
    gate.open()
    await profile.waitUntilIdle()
    XCTAssertEqual(parent.state.profile.name, "", "the cancelled effect's action is dropped")
    XCTAssertEqual(profile.effectsInFlight, 0)
    observation.cancel()
  }
}
