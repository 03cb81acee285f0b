import BaselineStore
import Verge
import VergeNeue

/// Scenario 8's state: values that subscribers select one by one, a field
/// that none of them reads, and a revision.
struct ValuesState: Equatable, Sendable {
  var values: [Int]
  var unrelated = 0
}

/// How many per-value subscribers scenario 8 registers.
private let selectorCount = 100
/// The array of scenario 8's whole-state subscriber case.
private let largeCount = 1_000_000
/// Scenario 8's VergeORM sizes.
private let ormBatch = 10_000
private let ormTable = 100_000

/// The case names of scenario 8, which its targets look up.
private enum IdiomaticCase {
  static let commitOneSubscriber = "S2 commit, one sinkState { changes in … } subscriber"
  static let ifChanged = "S5b 100 sinkState { $0.ifChanged(\\.values[k]) { … } }, unrelated commit"
  static let select = "S5 100 derived(.select(\\.values[k])), unrelated commit"
  static let ifChangedClosure =
    "S5b, closure form: 100 sinkState { $0.ifChanged({ $0.values[k] }) { … } } (for information)"
  static let map = "S5, closure form: 100 derived(.map { $0.values[k] }) (for information)"
  static let sendVsCore = "S7 ActionStore.send(.increment) vs core Store.commit (for information)"
  static let largeWholeState =
    "S4 1,000,000-element array, one element, whole-state sinkState vs a baseline subscriber that keeps the state"
  static let send = "S7 ActionStore.send(.increment), no subscriber"
  static let insert = "S8a VergeORM insert 10,000 in one batch vs Dictionary"
  static let find = "S8c VergeORM find by ID in 100,000 vs Dictionary"
  static let scope = "scoped store commit vs root Store.commit"
}

extension Scenario {
  /// 8. The forms that users write: the seeds' `sinkState`,
  /// `ifChanged` and `.select` forms, `ActionStore.send` without
  /// middlewares, VergeORM batches and look-ups, and a scoped store's commit.
  static var idiomatic: Scenario {
    Scenario(
      number: 8,
      title: "The forms users write",
      cases: [
        BenchmarkCase(
          name: IdiomaticCase.commitOneSubscriber,
          library: { commitOneSubscriber() },
          baseline: { baselineCommitOneSubscriber() }),
        BenchmarkCase(
          name: IdiomaticCase.ifChanged, units: selectorCount,
          library: { ifChangedSubscribers(count: selectorCount) },
          baseline: { baselineSelectors(count: selectorCount) }),
        BenchmarkCase(
          name: IdiomaticCase.select, units: selectorCount,
          library: { selectDerived(count: selectorCount) },
          baseline: { baselineSelectors(count: selectorCount) }),
        BenchmarkCase(
          name: IdiomaticCase.ifChangedClosure, units: selectorCount,
          library: { ifChangedClosureSubscribers(count: selectorCount) },
          baseline: { baselineSelectors(count: selectorCount) }),
        BenchmarkCase(
          name: IdiomaticCase.map, units: selectorCount,
          library: { mapDerived(count: selectorCount) },
          baseline: { baselineSelectors(count: selectorCount) }),
        BenchmarkCase(
          name: IdiomaticCase.largeWholeState,
          library: { largeWholeState(count: largeCount) },
          baseline: { baselineLargeKeepingState(count: largeCount) }),
        BenchmarkCase(
          name: IdiomaticCase.send,
          library: { plainSend() },
          baseline: { baselineCounterCommit() }),
        BenchmarkCase(
          name: IdiomaticCase.sendVsCore,
          library: { plainSend() },
          baseline: { coreCounterCommit() }),
        BenchmarkCase(
          name: IdiomaticCase.insert, units: ormBatch,
          library: { insertBatch(count: ormBatch) },
          baseline: { baselineInsert(count: ormBatch) }),
        BenchmarkCase(
          name: IdiomaticCase.find,
          library: { findByID(count: ormTable) },
          baseline: { baselineFind(count: ormTable) }),
        BenchmarkCase(
          name: IdiomaticCase.scope,
          library: { scopedCommit() },
          baseline: { rootCommit() }),
      ],
      targets: { results in
        [
          .atMost(
            "S2 commit with one sinkState subscriber: at most 1.5× the baseline",
            results[IdiomaticCase.commitOneSubscriber]?.ratio, limit: 1.5, format: Formatting.ratio),
          .atMost(
            "S5b 100 ifChanged(\\.values[k]) subscribers, unrelated commit: at most 2× the baseline",
            results[IdiomaticCase.ifChanged]?.ratio, limit: 2, format: Formatting.ratio),
          .atMost(
            "S5 100 derived(.select(\\.values[k])), unrelated commit: at most 2× the baseline",
            results[IdiomaticCase.select]?.ratio, limit: 2, format: Formatting.ratio),
          // One copy and no comparison: no more than a store that copies
          // once (the baseline, whose subscriber keeps the state), with a
          // margin for the bookkeeping around the copy.
          .atMost(
            "S4 whole-state subscriber on 1,000,000 elements: one copy, no comparison "
              + "(at most 1.1× the copy-only baseline)",
            results[IdiomaticCase.largeWholeState]?.ratio, limit: 1.1, format: Formatting.ratio),
          .atMost(
            "S4 whole-state subscriber on 1,000,000 elements: at most one copy of the array",
            results[IdiomaticCase.largeWholeState]?.library.bytesPerOperation.map {
              $0 / Double(largeCount * MemoryLayout<Int>.stride)
            },
            limit: 1.01, format: { "\(Formatting.fixed($0, digits: 2)) copies/op" }),
          .atMost(
            "S7 ActionStore.send(.increment), no subscriber: at most 1.5× the baseline",
            results[IdiomaticCase.send]?.ratio, limit: 1.5, format: Formatting.ratio),
          .atMost(
            "S8a VergeORM insert in one batch: at most 4× a Dictionary",
            results[IdiomaticCase.insert]?.ratio, limit: 4, format: Formatting.ratio),
          .atMost(
            "S8c VergeORM find by ID in 100,000: at most 3× a Dictionary",
            results[IdiomaticCase.find]?.ratio, limit: 3, format: Formatting.ratio),
        ]
      })
  }
}

// MARK: - Core

private func commitOneSubscriber() -> Workload {
  let store = Store<Counter, Never>(initialState: Counter())
  store.sinkState { changes in blackHole(changes.count) }
    .storeWhileSourceActive()
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

private func baselineCommitOneSubscriber() -> Workload {
  let store = BaselineStore(Counter())
  store.subscribe { state in blackHole(state.count) }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

/// The seeds' form: one subscriber per value, each comparing its value
/// with `ifChanged` and a key path with a subscript.
private func ifChangedSubscribers(count: Int) -> Workload {
  let store = Store<ValuesState, Never>(initialState: ValuesState(values: Array(0..<count)))
  for k in 0..<count {
    store.sinkState { $0.ifChanged(\.values[k]) { blackHole($0) } }
      .storeWhileSourceActive()
  }
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}

/// The seeds' form: one derived value per value, selected by a key path
/// with a subscript.
private func selectDerived(count: Int) -> Workload {
  let store = Store<ValuesState, Never>(initialState: ValuesState(values: Array(0..<count)))
  let derived: [AnyObject] = (0..<count).map { k in store.derived(.select(\.values[k])) }
  return Workload(keepAlive: [store] + derived) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}

/// The same subscribers with the value picked by a closure instead of a
/// key path with a subscript.
private func ifChangedClosureSubscribers(count: Int) -> Workload {
  let store = Store<ValuesState, Never>(initialState: ValuesState(values: Array(0..<count)))
  for k in 0..<count {
    store.sinkState { $0.ifChanged({ $0.values[k] }) { blackHole($0) } }
      .storeWhileSourceActive()
  }
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}

/// The same derived values with the value picked by a closure.
private func mapDerived(count: Int) -> Workload {
  let store = Store<ValuesState, Never>(initialState: ValuesState(values: Array(0..<count)))
  let derived: [AnyObject] = (0..<count).map { k in store.derived(.map { $0.values[k] }) }
  return Workload(keepAlive: [store] + derived) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}

/// Hand-written select-and-compare closures, one per value.
private func baselineSelectors(count: Int) -> Workload {
  let store = BaselineStore(ValuesState(values: Array(0..<count)))
  for k in 0..<count {
    store.select({ $0.values[k] }, onChange: { blackHole($0) })
  }
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.unrelated &+= 1 }
    }
  }
}

private func largeWholeState(count: Int) -> Workload {
  let store = Store<LargeState, Never>(initialState: LargeState(items: Array(repeating: 0, count: count)))
  store.sinkState { changes in blackHole(changes.revision) }
    .storeWhileSourceActive()
  let cursor = Cursor(count: count)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      let index = cursor.next()
      store.commit { $0.items[index] &+= 1 }
    }
  }
}

/// The baseline's subscriber keeps the state it received until the next
/// commit, so every commit copies the array once, as a store that hands its
/// subscriber the previous state must.
private func baselineLargeKeepingState(count: Int) -> Workload {
  let store = BaselineStore(LargeState(items: Array(repeating: 0, count: count)))
  let held = Locked<LargeState?>(nil)
  store.subscribe { state in held.withLock { $0 = state } }
  let cursor = Cursor(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let index = cursor.next()
      store.commit { $0.items[index] &+= 1 }
    }
  }
}

// MARK: - VergeNeue

/// `send` as the seeds write it: no middleware, no subscriber.
private func plainSend() -> Workload {
  let store = ActionStore(initialState: Counter(), reducer: CounterActions())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.increment)
    }
  }
}

private func coreCounterCommit() -> Workload {
  let store = Store<Counter, Never>(initialState: Counter())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

private func baselineCounterCommit() -> Workload {
  let store = BaselineStore(Counter())
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

/// Scenario 8's parent state for the scoped commit.
struct ParentState: Equatable, Sendable {
  var child = Item()
  var title = "parent"
}

/// A scoped store on a stored property, with no subscriber; the target is
/// its commit within 2× a root commit of the same change.
private func scopedCommit() -> Workload {
  let store = Store<ParentState, Never>(initialState: ParentState())
  let scoped = store.scope(\.child, reducer: ItemMethods())
  return Workload(keepAlive: [store, scoped]) { iterations in
    for _ in 0..<iterations {
      scoped.commit { $0.increment() }
    }
  }
}

private func rootCommit() -> Workload {
  let store = Store<ParentState, Never>(initialState: ParentState())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.child.count &+= 1 }
    }
  }
}
