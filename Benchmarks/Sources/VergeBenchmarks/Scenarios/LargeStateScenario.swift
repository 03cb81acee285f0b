import BaselineStore
import Observation
import Verge

/// Scenario 2's state: a large array next to small fields.
struct LargeState: Equatable, Sendable {
  var items: [Int]
  var revision = 0
  var title = "inbox"
}

/// Who listens to the store in a scenario 2 case.
enum Listeners: CaseIterable {
  /// Nobody.
  case none
  /// One whole-state `sinkState` subscriber, which is promised the previous state.
  case wholeState
  /// Three derived values and one observation reader, each keeping only the
  /// small value it selected; the commit does not change what they read.
  case readers

  var caseName: String {
    switch self {
    case .none: "0 subscribers"
    case .wholeState: "1 sinkState subscriber"
    case .readers: "3 derived + 1 observation reader"
    }
  }
}

extension Scenario {
  /// 2. One element of a 100,000- and a 1,000,000-element array changes.
  static var largeState: Scenario {
    let sizes = [100_000, 1_000_000]
    var cases: [BenchmarkCase] = []
    for size in sizes {
      for listeners in Listeners.allCases {
        cases.append(
          BenchmarkCase(
            name: "\(grouped(size)) elements, \(listeners.caseName)",
            library: { libraryLargeState(size: size, listeners: listeners) },
            baseline: { baselineLargeState(size: size, listeners: listeners) }))
      }
    }
    return Scenario(
      number: 2, title: "One element of a large array changes", cases: cases,
      targets: { largeStateTargets($0, sizes: sizes) })
  }
}

private func largeStateTargets(_ results: ScenarioResults, sizes: [Int]) -> [TargetVerdict] {
  var verdicts: [TargetVerdict] = []
  func result(_ size: Int, _ listeners: Listeners) -> CaseResult? {
    results["\(grouped(size)) elements, \(listeners.caseName)"]
  }
  for size in sizes {
    let arrayBytes = Double(size * MemoryLayout<Int>.stride)
    for listeners in [Listeners.none, .readers] {
      let label = "\(grouped(size)), \(listeners.caseName)"
      verdicts.append(
        .atMost(
          "\(label): within 2× the baseline", result(size, listeners)?.ratio,
          limit: 2, format: Formatting.ratio))
      // "No copy at all": far less than one copy of the array per commit.
      verdicts.append(
        .atMost(
          "\(label): no copy of the array", result(size, listeners)?.library.bytesPerOperation,
          limit: arrayBytes / 100, format: { "\(Formatting.bytes($0)) allocated/op" }))
    }
    verdicts.append(
      .atMost(
        "\(grouped(size)), 0 subscribers: zero allocations per commit",
        result(size, .none)?.library.allocationsPerOperation,
        limit: 0, format: { "\(Formatting.count($0)) allocations/op" }))
    // One copy of the array is its elements plus a small header.
    verdicts.append(
      .atMost(
        "\(grouped(size)), \(Listeners.wholeState.caseName): at most one copy of the array",
        result(size, .wholeState)?.library.bytesPerOperation.map { $0 / arrayBytes },
        limit: 1.01, format: { "\(Formatting.fixed($0, digits: 2)) copies/op" }))
  }
  if let small = sizes.first, let large = sizes.last {
    for listeners in [Listeners.none, .readers] {
      // Growth of the library's time relative to the baseline's growth, so
      // that load from elsewhere on the machine cancels out; the baseline
      // mutates in place and is flat by construction.
      let growth = result(large, listeners).flatMap { large in
        result(small, listeners).map { large.ratio / $0.ratio }
      }
      let rawGrowth = result(large, listeners).flatMap { large in
        result(small, listeners).map { large.library.nanosecondsPerOperation / $0.library.nanosecondsPerOperation }
      }
      verdicts.append(
        .atMost(
          "\(listeners.caseName): flat from \(grouped(small)) to \(grouped(large)) "
            + "(ratio to the baseline grows at most 1.5×)",
          growth, limit: 1.5,
          format: { "\(Formatting.ratio($0)) (Verge alone: \(Formatting.ratio(rawGrowth ?? .nan)))" }))
    }
  }
  return verdicts
}

private func libraryLargeState(size: Int, listeners: Listeners) -> Workload {
  let store = Store<LargeState, Never>(initialState: LargeState(items: Array(repeating: 0, count: size)))
  var keepAlive: [AnyObject] = []
  switch listeners {
  case .none:
    break
  case .wholeState:
    store.sinkState(dropsFirst: true) { changes in blackHole(changes.current.revision) }
      .storeWhileSourceActive()
  case .readers:
    keepAlive.append(store.derived(.select(\.revision)))
    keepAlive.append(store.derived(.select(\.title)))
    keepAlive.append(store.derived(.map { $0.items.count }))
    withObservationTracking {
      blackHole(store.state.revision)
    } onChange: {
      blackHole(0)
    }
  }
  let cursor = Cursor(count: size)
  return Workload(keepAlive: keepAlive) { iterations in
    for _ in 0..<iterations {
      let index = cursor.next()
      store.commit { $0.items[index] &+= 1 }
    }
  }
}

private func baselineLargeState(size: Int, listeners: Listeners) -> Workload {
  let store = BaselineStore(LargeState(items: Array(repeating: 0, count: size)))
  switch listeners {
  case .none:
    break
  case .wholeState:
    store.subscribe { state in blackHole(state.revision) }
  case .readers:
    store.select({ $0.revision }, onChange: { blackHole($0) })
    store.select({ $0.title }, onChange: { blackHole($0) })
    store.select({ $0.items.count }, onChange: { blackHole($0) })
    store.select({ $0.revision }, onChange: { blackHole($0) })
  }
  let cursor = Cursor(count: size)
  return Workload { iterations in
    for _ in 0..<iterations {
      let index = cursor.next()
      store.commit { $0.items[index] &+= 1 }
    }
  }
}
