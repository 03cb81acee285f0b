import VergeNeue

/// Scenario 15's counter, whose step is a dependency.
struct SteppedCounter: ActionReducer {
  typealias State = Counter
  enum Action: Sendable, Equatable { case increment }

  @Dependency(\.benchmarkStep) var step

  /// Reads the step by its property, or by its key when `byKey` is set.
  init(byKey: Bool) {
    if byKey { _step = Dependency(BenchmarkStepKey.self) }
  }

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
          name: overriddenCase,
          library: { steppedSend(overridden: true, byKey: false) },
          baseline: { counterSend() }),
        BenchmarkCase(
          name: defaultCase,
          library: { steppedSend(overridden: false, byKey: false) },
          baseline: { counterSend() }),
        BenchmarkCase(
          name: overriddenKeyCase,
          library: { steppedSend(overridden: true, byKey: true) },
          baseline: { counterSend() }),
        BenchmarkCase(
          name: defaultKeyCase,
          library: { steppedSend(overridden: false, byKey: true) },
          baseline: { counterSend() }),
      ],
      targets: { results in
        [
          ("An overridden dependency's read by key path", overriddenCase),
          ("A default's read by key path", defaultCase),
          ("An overridden dependency's read by key", overriddenKeyCase),
          ("A default's read by key", defaultKeyCase),
        ].map { label, name in
          .atMost(
            "\(label): at most 40 instructions over the S7 send (a few dozen)",
            results[name].flatMap(readCost), limit: 40, format: { Formatting.fixed($0, digits: 0) })
        }
      })
  }
}

private let overriddenCase = "S7 send whose reducer reads one @Dependency (overridden where the store is made) vs S7 send"
private let defaultCase = "S7 send whose reducer reads one @Dependency (its default) vs S7 send"
private let overriddenKeyCase =
  "S7 send whose reducer reads one @Dependency by key (overridden where the store is made) vs S7 send"
private let defaultKeyCase = "S7 send whose reducer reads one @Dependency by key (its default) vs S7 send"

/// What the read adds to the send, in instructions; `nil` when the run was
/// timed, whose figures are not judged against an instruction count.
private func readCost(_ result: CaseResult) -> Double? {
  guard let library = result.library.instructionsPerOperation,
    let baseline = result.baseline.instructionsPerOperation
  else { return nil }
  return library - baseline
}

private func steppedSend(overridden: Bool, byKey: Bool) -> Workload {
  let store = ActionStore(
    initialState: Counter(), reducer: SteppedCounter(byKey: byKey),
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
