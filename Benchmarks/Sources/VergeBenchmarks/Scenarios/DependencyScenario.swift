import VergeNeue

/// Scenario 15's counter, whose step is a dependency.
struct SteppedCounter: ActionReducer {
  typealias State = Counter
  enum Action: Sendable, Equatable { case increment }

  @Dependency(\.benchmarkStep) var step

  func reduce(into state: inout Counter, action: Action) -> Effect<Action, Activity> {
    state.count &+= step
    return .none
  }
}

/// The step of `SteppedCounter`.
enum BenchmarkStepKey: DependencyKey {
  static let liveValue = 1
  static let testValue = 1
}

extension DependencyValues {
  /// How much `SteppedCounter` adds.
  var benchmarkStep: Int {
    get { self[BenchmarkStepKey.self] }
    set { self[BenchmarkStepKey.self] = newValue }
  }
}

extension Scenario {
  /// 15. Dependencies: what reading one costs a reduction.
  static var dependencies: Scenario {
    Scenario(
      number: 15,
      title: "Dependencies",
      cases: [
        BenchmarkCase(
          name: "S7 send whose reducer reads one @Dependency (overridden where the store is made) vs S7 send",
          library: { steppedSend(overridden: true) },
          baseline: { counterSend() }),
        BenchmarkCase(
          name: "S7 send whose reducer reads one @Dependency (its default) vs S7 send",
          library: { steppedSend(overridden: false) },
          baseline: { counterSend() }),
      ],
      targets: { _ in [] })
  }
}

private func steppedSend(overridden: Bool) -> Workload {
  let store = ActionStore(
    initialState: Counter(), reducer: SteppedCounter(),
    withDependencies: { if overridden { $0.benchmarkStep = 1 } })
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.increment)
    }
  }
}

private func counterSend() -> Workload {
  let store = ActionStore(initialState: Counter(), reducer: CounterActions())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.increment)
    }
  }
}
