import Foundation
import Verge
import VergeNeue
import VergeTesting

// Each walk is one public call in a function of its own, never inlined, so
// that `walks.sh` can switch callgrind's collection on for exactly that
// call (`--toggle-collect=<the function's mangled name>*`). Every store and
// subscriber is made before, outside the walk.

/// The state of the commit, persistence and TestStore walks.
struct Counter: Equatable, Sendable, Codable {
  var count = 0
}

/// The counter's one action, for the TestStore walk.
struct CounterActions: ActionReducer {
  typealias State = Counter
  enum Action: Sendable, Equatable { case increment }

  func reduce(into state: inout Counter, action: Action) -> Effect<Action, Never> {
    state.count &+= 1
    return .none
  }
}

/// A row of the `forEach` walk.
struct Row: Identifiable, Equatable, Sendable {
  let id: Int
  var value = 0
}

/// The row's own feature.
struct RowActions: ActionReducer {
  typealias State = Row
  enum Action: Sendable, Equatable { case bump }

  func reduce(into state: inout Row, action: Action) -> Effect<Action, Never> {
    state.value &+= 1
    return .none
  }
}

/// The list feature whose rows run through `forEach`.
struct ListActions: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row>
  }
  enum Action: Sendable, Equatable {
    case row(id: Int, action: RowActions.Action)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: RowActions.Action)>(
    { Action.row(id: $0.id, action: $0.action) }
  ) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    .none
  }
}

/// Walk 1: `store.commit { … }` with one `sinkState` subscriber.
@inline(never)
func walkCommit(_ store: Store<Counter, Never>) {
  store.commit { $0.count &+= 1 }
}

/// Walk 2: `actionStore.send(.row(id:action:))` through `forEach`, with one
/// subscriber.
@inline(never)
func walkRowAction<Feature: ActionReducer>(_ store: ActionStore<Feature>, _ action: Feature.Action) {
  store.send(action)
}

/// Walk 3: `persist`, then a commit that is written (`flushSynchronously`).
@inline(never)
func walkPersist(_ store: Store<Counter, Never>, to file: URL) throws -> FilePersistence {
  let persistence = try store.persist(\.self, to: file, writeInterval: .seconds(3600))
  store.commit { $0.count &+= 1 }
  try persistence.flushSynchronously()
  return persistence
}

/// Walk 4: `TestStore.send` with its assertion, in a task started on the
/// calling thread, as a test runs it. The walk is a synchronous function so
/// that callgrind's collection follows the call stack, not an async
/// function's partial functions.
@inline(never)
func walkTestStore(_ store: Unshared<TestStore<CounterActions>>) {
  runBlocking {
    await store.value.send(.increment) { $0.count &+= 1 }
  }
}
