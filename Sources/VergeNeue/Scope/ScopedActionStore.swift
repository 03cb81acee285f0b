@_spi(Internal) import Verge

/// A view onto one part of an `ActionStore`'s state and one case of its
/// actions, as The Composable Architecture scopes its store: a child
/// feature's screen reads its part and sends its own actions, and the root
/// store runs them.
///
/// ```swift
/// let store = ActionStore(
///   initialState: AppFeature.State(),
///   reducer: AppFeature().embed(SearchFeature(), state: \.search, action: AppFeature.searchCase))
/// let search = store.scope(state: \.search, action: AppFeature.Action.search)
/// search.send(.queryChanged("swift"))          // AppFeature.Action.search(.queryChanged("swift"))
/// search.sinkState { changes in render(changes.current) }.storeWhileSourceActive()
/// ```
///
/// - What it sends is wrapped into the root's action and sent to the root
///   store: the root's reducer (with the child embedded in it, see
///   `ActionReducer.embed(_:state:action:)`), its middlewares, `Recorder`
///   and `UndoHistory` see it, and the root's re-entrancy rule and effects
///   apply. It returns the root's `StoreTask`.
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

  /// Sends an action: wrapped into the root's action, to the root store.
  ///
  /// - Parameter action: What happened.
  /// - Returns: The root store's handle for the action: wait for its
  ///   reduction and effects, or cancel those effects.
  @inlinable @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendToRoot(action)
  }

  /// A view onto a part of this part and a case of this scope's actions.
  ///
  /// - Parameters:
  ///   - state: Where the part lives in this scope's state.
  ///   - action: Wraps the part's actions into this scope's.
  /// - Returns: The scoped store; it sends to the same root.
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
  /// (`embed(_:state:action:)`, `forEach`, `ifLet`).
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
    ScopedActionStore(fragment: focus(state)) { [self] in send(action($0)) }
  }

  @usableFromInline
  func focus<Child>(_ keyPath: KeyPath<State, Child> & Sendable) -> ScopeFragment<Child, Activity> {
    ScopeFragment(source: RootFocus(rootStore: RootStore(store: core, owner: self, pipeline: nil)) { $0[keyPath: keyPath] })
  }
}
