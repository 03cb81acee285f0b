import BaselineStore
import VergeNeue

/// Scenario 4's method reducer for the counter of scenario 1.
final class CounterMethods: ReducerType {
  typealias TargetState = Counter

  func increment() -> Mutation { .init { $0.count &+= 1 } }
}

/// Scenario 4's enum actions for the counter of scenario 1.
struct CounterActions: ActionReducer {
  typealias State = Counter
  enum Action: Sendable, Equatable { case increment }

  func reduce(into state: inout Counter, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .increment:
      state.count &+= 1
      return .none
    }
  }
}

/// Scenario 4's parent state: one fragment per scoped store.
struct ItemsState: Equatable, Sendable {
  var items: [Item]
}

/// One fragment of `ItemsState`.
struct Item: Equatable, Sendable {
  var count = 0
}

/// The method reducer of one fragment.
final class ItemMethods: ReducerType {
  typealias TargetState = Item

  func increment() -> Mutation { .init { $0.count &+= 1 } }
}

/// How many scoped stores scenario 4 makes.
private let scopeCount = 1_000
/// How many pass-through middlewares scenario 4's enum actions go through.
private let middlewareCount = 3

extension Scenario {
  /// 4. VergeNeue: a method-reducer commit, an enum action through 3
  /// middlewares, and 1,000 scoped stores with a commit to one fragment.
  static var neue: Scenario {
    Scenario(
      number: 4,
      title: "VergeNeue: method reducer, enum actions through middlewares, scoped stores",
      cases: [
        BenchmarkCase(
          name: "method-reducer commit",
          library: { reducerCommit() },
          baseline: { baselineCounter() }),
        // The target compares this one with a bare core commit, not with the
        // baseline store: the baseline side here is `Store.commit`.
        BenchmarkCase(
          name: "send(.increment) through 3 middlewares vs core Store.commit",
          library: { actionSend(middlewares: middlewareCount) },
          baseline: { coreCommit() }),
        BenchmarkCase(
          name: "send(.increment) through 3 middlewares vs baseline store",
          library: { actionSend(middlewares: middlewareCount) },
          baseline: { baselineCounter() }),
        BenchmarkCase(
          name: "1,000 scoped stores, commit to one fragment",
          units: scopeCount,
          library: { scopedStores(count: scopeCount) },
          baseline: { baselineFragments(count: scopeCount) }),
      ],
      targets: { results in
        [
          .atMost(
            "enum action through 3 middlewares: at most 5× a bare core Store.commit",
            results["send(.increment) through 3 middlewares vs core Store.commit"]?.ratio,
            limit: 5, format: Formatting.ratio)
        ]
      })
  }
}

private func reducerCommit() -> Workload {
  let store = ReducerStore(initialState: Counter(), reducer: CounterMethods())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.increment() }
    }
  }
}

private func actionSend(middlewares: Int) -> Workload {
  let passThrough = (0..<middlewares).map { index in
    Middleware<CounterActions.Action, Counter>(name: "pass \(index)") { step in step.next() }
  }
  let store = ActionStore(initialState: Counter(), reducer: CounterActions(), middlewares: passThrough)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.increment)
    }
  }
}

private func coreCommit() -> Workload {
  let store = Store<Counter, Never>(initialState: Counter())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

private func baselineCounter() -> Workload {
  let store = BaselineStore(Counter())
  return Workload { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

/// One scoped store per fragment, each with a subscriber (a scoped store
/// follows its fragment only once asked to); the commit goes through one
/// of them, walking the fragments.
private func scopedStores(count: Int) -> Workload {
  let store = Store<ItemsState, Never>(initialState: ItemsState(items: Array(repeating: Item(), count: count)))
  var scopes: [ScopedStore<ItemMethods>] = []
  for index in 0..<count {
    let scoped = store.scope(\.items[index], reducer: ItemMethods())
    scoped.sinkState(dropsFirst: true) { changes in blackHole(changes.current.count) }
      .storeWhileSourceActive()
    scopes.append(scoped)
  }
  let cursor = Cursor(count: count)
  return Workload(keepAlive: [store] + scopes) { iterations in
    for _ in 0..<iterations {
      scopes[cursor.next()].commit { $0.increment() }
    }
  }
}

private func baselineFragments(count: Int) -> Workload {
  let store = BaselineStore(ItemsState(items: Array(repeating: Item(), count: count)))
  for index in 0..<count {
    store.select({ $0.items[index] }, onChange: { blackHole($0.count) })
  }
  let cursor = Cursor(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let index = cursor.next()
      store.commit { $0.items[index].count &+= 1 }
    }
  }
}
