import BaselineStore
import Verge

/// Scenario 3's state: many small fields, each selected by one derived
/// value, and one field that no derived value reads.
struct FieldsState: Equatable, Sendable {
  var fields: [Int]
  var unrelated = 0
}

extension Scenario {
  /// 3. 100 and 10,000 derived values over distinct fields; the commit
  /// changes a field none of them reads.
  static var derivedValues: Scenario {
    let counts = [100, 10_000]
    return Scenario(
      number: 3,
      title: "Derived values over distinct fields, unrelated commit",
      cases: counts.map { count in
        BenchmarkCase(
          name: "\(grouped(count)) derived values",
          units: count,
          library: { libraryDerived(count: count, byKeyPath: false) },
          baseline: { baselineDerived(count: count) })
      } + [
        // For information: the same through a key path with a subscript,
        // which Swift can only project at run time.
        BenchmarkCase(
          name: "10,000 derived values, select(\\.fields[i])",
          units: 10_000,
          library: { libraryDerived(count: 10_000, byKeyPath: true) },
          baseline: { baselineDerived(count: 10_000) })
      ],
      targets: { results in
        [
          .atMost(
            "100 derived values: within 2× the hand-written select-and-compare",
            results["100 derived values"]?.ratio, limit: 2, format: Formatting.ratio),
          .atMost(
            "10,000 derived values: at most 30 ns per derived value",
            results["10,000 derived values"].map { $0.library.nanosecondsPerOperation / Double($0.units) },
            limit: 30, format: { "\(Formatting.time($0)) per derived value" }),
        ]
      })
  }
}

/// Verge's side: `.map { $0.fields[index] }`, the same selection the
/// baseline's closure makes; or `.select(\.fields[index])` when `byKeyPath`.
private func libraryDerived(count: Int, byKeyPath: Bool) -> Workload {
  let store = Store<FieldsState, Never>(initialState: FieldsState(fields: Array(0..<count)))
  let derived: [AnyObject] = (0..<count).map { index in
    byKeyPath
      ? store.derived(.select(\FieldsState.fields[index]))
      : store.derived(.map { $0.fields[index] })
  }
  return Workload(keepAlive: derived) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}

private func baselineDerived(count: Int) -> Workload {
  let store = BaselineStore(FieldsState(fields: Array(0..<count)))
  for index in 0..<count {
    store.select({ $0.fields[index] }, onChange: { blackHole($0) })
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}
