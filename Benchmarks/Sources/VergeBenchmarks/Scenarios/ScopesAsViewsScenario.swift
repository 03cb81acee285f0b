import Verge
import VergeNeue

/// How many unsubscribed scopes the "costs nothing" case makes.
private let idleScopeCount = 1_000

/// The root of the scoped-commit scenario: one fragment among others.
struct ScopedRoot: Equatable, Sendable {
  var item = Item()
  var other = 0
}

/// The root's enum actions: one case carries the fragment's.
struct ScopedRootActions: ActionReducer {
  typealias State = ScopedRoot
  enum Action: Sendable { case item(ItemActions.Action), bump }

  static let itemCase = ActionCase<Action, ItemActions.Action>(Action.item) {
    if case .item(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout ScopedRoot, action: Action) -> Effect<Action, Activity> {
    if case .bump = action { state.other &+= 1 }
    return .none
  }
}

/// The fragment's enum actions.
struct ItemActions: ActionReducer {
  typealias State = Item
  enum Action: Sendable { case increment }

  func reduce(into state: inout Item, action: Action) -> Effect<Action, Activity> {
    state.count &+= 1
    return .none
  }
}

/// The root's method reducer.
final class ScopedRootMethods: ReducerType {
  typealias TargetState = ScopedRoot

  func incrementItem() -> Mutation { .init { $0.item.count &+= 1 } }
}

extension Scenario {
  /// 9. Scopes are views onto the root: a scope's commit or send against
  /// the same change made on the root, and a root commit with 1,000
  /// unsubscribed scopes against one with none.
  static var scopesAsViews: Scenario {
    Scenario(
      number: 9,
      title: "scoped commit: a scope is a view onto its root",
      cases: [
        BenchmarkCase(
          name: "method scope commit vs root commit",
          library: { methodScopeCommit() },
          baseline: { methodRootCommit(idleScopes: 0) }),
        BenchmarkCase(
          name: "enum scope send vs root send",
          library: { actionScopeSend() },
          baseline: { actionRootSend() }),
        BenchmarkCase(
          name: "root commit with 1,000 unsubscribed scopes vs none",
          library: { methodRootCommit(idleScopes: idleScopeCount) },
          baseline: { methodRootCommit(idleScopes: 0) }),
      ],
      targets: { results in
        [
          .atMost(
            "a method scope's commit: at most 2× a root commit",
            results["method scope commit vs root commit"]?.ratio, limit: 2, format: Formatting.ratio),
          .atMost(
            "an enum scope's send: at most 2× a root send",
            results["enum scope send vs root send"]?.ratio, limit: 2, format: Formatting.ratio),
          .atMost(
            "unsubscribed scopes cost a root commit nothing (at most 1.2×)",
            results["root commit with 1,000 unsubscribed scopes vs none"]?.ratio, limit: 1.2,
            format: Formatting.ratio),
        ]
      })
  }
}

private func methodScopeCommit() -> Workload {
  let store = ReducerStore(initialState: ScopedRoot(), reducer: ScopedRootMethods())
  let scope = store.scope(\.item, reducer: ItemMethods())
  return Workload(keepAlive: [store, scope]) { iterations in
    for _ in 0..<iterations {
      scope.commit { $0.increment() }
    }
  }
}

private func methodRootCommit(idleScopes: Int) -> Workload {
  let store = ReducerStore(initialState: ScopedRoot(), reducer: ScopedRootMethods())
  let scopes = (0..<idleScopes).map { _ in store.scope(\.item, reducer: ItemMethods()) }
  return Workload(keepAlive: [store] + scopes) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.incrementItem() }
    }
  }
}

private func actionStore() -> ActionStore<Composed<ScopedRootActions>> {
  ActionStore(
    initialState: ScopedRoot(),
    reducer: ScopedRootActions().embed(ItemActions(), state: \.item, action: ScopedRootActions.itemCase))
}

private func actionScopeSend() -> Workload {
  let store = actionStore()
  let scope = store.scope(state: \.item, action: ScopedRootActions.Action.item)
  return Workload(keepAlive: [store, scope]) { iterations in
    for _ in 0..<iterations {
      scope.send(.increment)
    }
  }
}

private func actionRootSend() -> Workload {
  let store = actionStore()
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.item(.increment))
    }
  }
}
