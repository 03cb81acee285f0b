import Verge

/// A view onto one part of a root store's state that sends enum actions.
/// It comes in two forms, one per kind of root:
///
/// - On an `ActionStore`, features compose: the child feature is embedded
///   in the root's reducer (`ActionReducer.embed(_:state:action:)`,
///   `forEach`, `ifLet`) and `scope(state:action:)` views its part and one
///   case of the root's actions, as The Composable Architecture scopes its
///   store. What it sends is wrapped into the root's action and goes
///   through the root's reducer, middlewares, `Recorder` and `UndoHistory`,
///   under the root's re-entrancy rule; it returns the root's `StoreTask`.
/// - On a root with no enum-action reducer of its own (a core `Store`, a
///   `ReducerStore`, a method `ScopedStore`), `scope(_:reducer:)` gives the
///   part its own feature. Its actions are reduced one at a time, in the
///   order sent, with `ActionStore`'s re-entrancy rule and effects, and each
///   reduction is committed into the root in place, named after the action:
///   by the core store's `commit` (its commit middlewares see it), or
///   through a `ReducerStore`'s pipeline as a mutation. Its activities go to
///   the root's, whose type they must have (or be `Never`). Its effects run
///   while the scope or a `StoreTask` it returned lives, and are cancelled
///   once all of those are gone.
///
/// ```swift
/// let search = store.scope(state: \.search, action: AppFeature.Action.search)   // ActionStore
/// search.send(.queryChanged("swift"))          // AppFeature.Action.search(.queryChanged("swift"))
///
/// let draft = chat.scope(\.draft, reducer: DraftFeature())                       // Store
/// draft.send(.edit("hello"))                   // committed to chat, named after the action
/// draft.sinkState { changes in render(changes.current) }.storeWhileSourceActive()
/// ```
///
/// - Reads, `sinkState`, `derived` and `changes` come from `ReadableStore`
///   and notify only when its part changes; `sinkActivity` receives the
///   root's activities.
/// - Making one is O(1) and subscribes to nothing; until something
///   subscribes to it, the root's commits do not look at it.
/// - It keeps its root store alive, so nothing on it throws.
public final class ScopedActionStore<State: Equatable & Sendable, Action: Sendable, Activity: Sendable>:
  ReadableStore, Sendable
{
  @usableFromInline let fragment: ScopeFragment<State, Activity>
  @usableFromInline let sendToRoot: @Sendable (Action) -> StoreTask

  @usableFromInline
  init(fragment: ScopeFragment<State, Activity>, send: @escaping @Sendable (Action) -> StoreTask) {
    self.fragment = fragment
    sendToRoot = send
  }

  /// Its part of the root store's state.
  public var storeView: StoreView<State, Activity> { StoreView(fragment: fragment) }

  /// Sends an action: wrapped into the root's action, to the root store;
  /// or, for a scope with its own reducer, to that reducer.
  ///
  /// - Parameter action: What happened.
  /// - Returns: A handle for the action: wait for its reduction and
  ///   effects, or cancel those effects.
  @inlinable @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendToRoot(action)
  }

  /// A view onto a part of this part and a case of this scope's actions.
  ///
  /// - Parameters:
  ///   - state: Where the part lives in this scope's state.
  ///   - action: Wraps the part's actions into this scope's.
  /// - Returns: The scoped store; it sends where this scope sends.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState> & Sendable,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedActionStore<ChildState, ChildAction, Activity> {
    let send = sendToRoot
    return ScopedActionStore<ChildState, ChildAction, Activity>(fragment: focus(state)) { send(action($0)) }
  }

  @usableFromInline
  func focus<Child>(_ keyPath: KeyPath<State, Child> & Sendable) -> ScopeFragment<Child, Activity> {
    ScopeFragment(source: fragment.source.focus { $0[keyPath: keyPath] })
  }
}

extension ActionStore {
  /// A view onto the part of this state at `state` and the case `action`
  /// of this store's actions; see `ScopedActionStore`.
  ///
  /// The child feature runs inside this store's reducer: embed it there
  /// (`embed(_:state:action:)`, `forEach`, `ifLet`). An `ActionStore` has
  /// no `scope(_:reducer:)`: its features compose rather than run reducers
  /// of their own beside the root's.
  ///
  /// - Parameters:
  ///   - state: Where the part lives in this state.
  ///   - action: Wraps the part's actions into this store's (pass the case:
  ///     `AppFeature.Action.search`).
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState> & Sendable,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedActionStore<ChildState, ChildAction, Activity> {
    ScopedActionStore(fragment: focus(state, follow: { [core] in core.derived(.select(state)) })) { [self] in
      send(action($0))
    }
  }

  /// The part at `keyPath`; `follow` as in `KeyPathAccess`.
  @usableFromInline
  func focus<Child>(
    _ keyPath: KeyPath<State, Child> & Sendable, follow: @escaping @Sendable () -> Derived<Child>
  ) -> ScopeFragment<Child, Activity> {
    ScopeFragment(
      source: RootFocus(rootStore: RootStore(store: core, owner: self, pipeline: nil), follow: follow) {
        $0[keyPath: keyPath]
      })
  }
}
