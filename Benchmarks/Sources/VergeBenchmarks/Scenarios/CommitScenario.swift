import BaselineStore
import Verge

/// Scenario 1's state: a counter.
struct Counter: Equatable, Sendable {
  var count = 0
}

extension Scenario {
  /// 1. Commit on a counter with 0, 1 and 100 whole-state subscribers.
  static var commit: Scenario {
    Scenario(
      number: 1,
      title: "Commit on a counter",
      cases: [0, 1, 100].map { subscribers in
        BenchmarkCase(
          name: subscribers == 1 ? "1 subscriber" : "\(subscribers) subscribers",
          library: { libraryCounter(subscribers: subscribers) },
          baseline: { baselineCounter(subscribers: subscribers) })
      } + TwoFieldReader.allCases.map { reader in
        BenchmarkCase(
          name: "two fields read by one subscriber, \(reader.rawValue)",
          library: { twoFieldLibrary(reader) },
          baseline: { twoFieldBaseline() })
      } + [
        BenchmarkCase(
          name: "view model (StoreComponentType) commit, 0 subscribers",
          library: { viewModelCounter() },
          baseline: { baselineCounter(subscribers: 0) }),
        BenchmarkCase(
          name: "one subscriber of a derived value, derived(.map { $0.count * 2 }).sinkState",
          library: { derivedSubscriberCounter() },
          baseline: { baselineDerivedCounter() }),
        BenchmarkCase(
          name: "1 main-actor subscriber",
          // The suite runs on the main thread.
          library: { mainActorCounter() },
          baseline: { baselineCounter(subscribers: 1) })
      ],
      targets: { results in
        [
          .atMost(
            "0 subscribers: at most 2× the baseline", results["0 subscribers"]?.ratio,
            limit: 2, format: Formatting.ratio),
          .atMost(
            "1 subscriber: at most 2× the baseline", results["1 subscriber"]?.ratio,
            limit: 2, format: Formatting.ratio),
          .atMost(
            "1 main-actor subscriber: at most 2× the baseline", results["1 main-actor subscriber"]?.ratio,
            limit: 2, format: Formatting.ratio),
          .atMost(
            "100 subscribers: at most 1.3× the baseline", results["100 subscribers"]?.ratio,
            limit: 1.3, format: Formatting.ratio),
          .atMost(
            "0 subscribers: zero allocations per commit",
            results["0 subscribers"]?.library.allocationsPerOperation,
            limit: 0, format: { "\(Formatting.count($0)) allocations/op" }),
        ]
      })
  }
}

private func libraryCounter(subscribers: Int) -> Workload {
  let store = Store<Counter, Never>(initialState: Counter())
  for _ in 0..<subscribers {
    store.sinkState(dropsFirst: true) { changes in blackHole(changes.current.count) }
      .storeWhileSourceActive()
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

/// Verge's one-liner: a subscriber of a value derived from the counter.
private func derivedSubscriberCounter() -> Workload {
  let store = Store<Counter, Never>(initialState: Counter())
  // Not `blackHole(changes.current)`: for a counter of one `Int` that is
  // the same machine code as the subscribers of `libraryCounter`, and the
  // optimizer would merge them (see `mainActorCounter`).
  store.derived(.map { $0.count * 2 }).sinkState(dropsFirst: true) { changes in blackHole(changes.current / 2) }
    .storeWhileSourceActive()
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 2 }
    }
  }
}

/// The hand-written derived value: computes, compares with the last, calls.
private func baselineDerivedCounter() -> Workload {
  let store = BaselineStore(Counter())
  let last = BaselineSeen()
  store.subscribe { state in
    let doubled = state.count &* 2
    if doubled != last.count {
      last.count = doubled
      blackHole(doubled)
    }
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

/// A view model that owns its store, committing from its own method, as
/// Verge's documentation writes one.
final class CounterViewModel: StoreComponentType {
  typealias State = Counter

  let store: DefaultStore = .init(initialState: .init())

  func increment() {
    commit { $0.count &+= 1 }
  }
}

private func viewModelCounter() -> Workload {
  let viewModel = CounterViewModel()
  return Workload { iterations in
    for _ in 0..<iterations {
      viewModel.increment()
    }
  }
}

/// A counter with one subscriber made in main-actor code, as a view
/// controller makes it; the commits run on the main thread, where the
/// handler is called at once.
private func mainActorCounter() -> Workload {
  // This case's closures differ from `libraryCounter`'s (`&+= 3`,
  // `blackHole(changes.current)`): identical closures are merged by the
  // optimizer, and a merged handler is called through a thunk, which moved
  // the original cases' counts (100 subscribers: +400 instructions).
  let store = Store<Counter, Never>(initialState: Counter())
  // The suite runs on the main thread.
  MainActor.assumeIsolated { subscribeFromMainActor(store) }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 3 }
    }
  }
}

@MainActor
private func subscribeFromMainActor(_ store: Store<Counter, Never>) {
  store.sinkState(dropsFirst: true) { changes in blackHole(changes.current) }
    .storeWhileSourceActive()
}

private func baselineCounter(subscribers: Int) -> Workload {
  let store = BaselineStore(Counter())
  for _ in 0..<subscribers {
    store.subscribe { state in blackHole(state.count) }
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

/// A profile whose commits change one field (`visits`) while subscribers
/// read two others.
struct Profile: Equatable, Sendable {
  var name = "Ada"
  var count = 0
  var visits = 0
}

/// The forms of reading two fields of a change that users write.
enum TwoFieldReader: String, CaseIterable {
  case keyPaths = "ifChanged(\\.name, \\.count)"
  case tuple = "ifChanged({ ($0.name, $0.count) })"
  case vergeComparer = "ifChanged({ ($0.name, $0.count) }, ==)"
  case accumulate = "accumulate { $0.ifChanged(\\.name).do { }; $0.ifChanged(\\.count).do { } }"
}

private func twoFieldLibrary(_ reader: TwoFieldReader) -> Workload {
  let store = Store<Profile, Never>(initialState: Profile())
  switch reader {
  case .keyPaths:
    store.sinkState { $0.ifChanged(\.name, \.count) { name, count in blackHole((name, count)) } }
      .storeWhileSourceActive()
  case .tuple:
    store.sinkState { $0.ifChanged({ ($0.name, $0.count) }) { name, count in blackHole((name, count)) } }
      .storeWhileSourceActive()
  case .vergeComparer:
    store.sinkState { $0.ifChanged({ ($0.name, $0.count) }, ==) { (name, count) in blackHole((name, count)) } }
      .storeWhileSourceActive()
  case .accumulate:
    store.accumulate { state in
      state.ifChanged(\.name).do { blackHole($0) }
      state.ifChanged(\.count).do { blackHole($0) }
    }
    .storeWhileSourceActive()
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.visits &+= 1 }
    }
  }
}

/// The hand-written reader: keeps the two fields it saw last and compares.
private func twoFieldBaseline() -> Workload {
  let store = BaselineStore(Profile())
  let seen = BaselineSeen()
  store.subscribe { state in
    if state.name != seen.name || state.count != seen.count {
      seen.name = state.name
      seen.count = state.count
      blackHole((state.name, state.count))
    }
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.visits &+= 1 }
    }
  }
}

/// What the hand-written reader saw last; only the committing thread uses it.
private final class BaselineSeen: @unchecked Sendable {
  // Safe: the benchmark commits from one thread, which calls the callback.
  var name = ""
  var count = -1
}
