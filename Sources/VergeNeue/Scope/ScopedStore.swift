import Verge

/// A store for one part of a parent store's state, picked by a writable key
/// path, with its own method reducer. It is a view onto its root store and
/// reads and writes like one.
///
/// ```swift
/// let photo = store.scope(\.selectedPhoto, reducer: PhotoReducer())
/// photo.commit { $0.like() }                   // changes the root's state in place
/// photo.sinkState { changes in render(changes.current) }.storeWhileSourceActive()
/// let detail = photo.scope(\.comments, reducer: CommentsReducer())   // scopes of scopes
/// ```
///
/// - Its mutations go through the root's pipeline: cut from a
///   `ReducerStore`, each is committed there under its own name, at the key
///   path, so the root's middlewares, `Recorder` and `UndoHistory` see it;
///   cut from a core `Store`, it is committed to it in place (its commit
///   middlewares see it).
/// - Reads, `sinkState`, `derived` and `changes` come from `ReadableStore`
///   and notify only when the fragment changes.
/// - Making one is O(1): nothing subscribes to the root until you call
///   `sinkState` or `derived`.
/// - Its reducer's activities go to the root store, whose activity type
///   they must have (or be `Never`); `scope` traps otherwise.
/// - It keeps its root alive: the store it was cut from (for a scope of a
///   scope, the first one's) lives at least as long as the scoped store, as
///   a child store holds its root in The Composable Architecture. So a
///   scoped store never finds its parent gone, and nothing on it throws for
///   that reason. Keep scoped stores where you keep the root store (a view
///   model, a view), not in a handler the root store holds: that would be a
///   reference cycle, like a handler that captures the store.
public final class ScopedStore<Reducer: ReducerType>: ReadableStore, Sendable {
  /// The fragment's type.
  public typealias State = Reducer.TargetState
  /// The activity type: its reducer's, sent to the root store.
  public typealias Activity = Reducer.TargetActivity

  let anchor: any ScopeAnchor<State>
  /// What this store does, shared with `ReducerStore`.
  @usableFromInline let engine: ReducerEngine<Reducer>
  let fragment: ScopeFragment<State, Activity>

  init(
    anchor: any ScopeAnchor<State>, reducer: Reducer,
    commitDirectly: @escaping @Sendable (ReducerMutation<State>) -> Bool
  ) {
    let root = anchor.root
    guard Activity.self == Never.self || root.accepts(Activity.self) else {
      fatalError("scope: the reducer's TargetActivity (\(Activity.self)) must be Never or the root store's activity type")
    }
    self.anchor = anchor
    let fragment = ScopeFragment<State, Activity>(source: anchor)
    self.fragment = fragment
    engine = ReducerEngine(
      reducer: reducer, access: anchor, commitDirectly: commitDirectly, middlewares: [],
      taskManager: fragment.taskManager,
      announce: root.announce,
      sendActivity: { activity in _ = root.sendActivity(activity) }, dependencies: root.dependencies)
  }

  /// The reducer.
  public var reducer: Reducer { engine.reducer }

  /// Its part of the root store's state; reads, subscriptions, `derived`
  /// and `task` come from `ReadableStore` and notify only when the part
  /// changes.
  public var storeView: StoreView<State, Activity> { StoreView(fragment: fragment) }

  /// Commits a mutation of the reducer into the root's state, through
  /// the root's pipeline; see `ReducerStore.commit(_:)`.
  ///
  /// - Parameter mutation: Picks the mutation from the reducer.
  /// - Complexity: When the root has no middleware, event observer or
  ///   commit middleware, a core commit at the key path, specialized where
  ///   the scope was made.
  @inlinable
  public func commit(_ mutation: (Reducer) -> ReducerMutation<State>) {
    let mutation = mutation(engine.reducer)
    if !engine.commitDirectly(mutation) { engine.commitThroughPipeline(mutation) }
  }

  /// Runs an action of the reducer and waits for it; see
  /// `ReducerStore.dispatch(_:isolation:)`.
  ///
  /// - Parameters:
  ///   - action: Picks the action from the reducer.
  ///   - isolation: The caller's actor, where `action` is called.
  /// - Returns: The action's result.
  /// - Throws: What the action threw, or `NeueError.dropped` when a
  ///   middleware dropped it.
  @discardableResult
  public func dispatch<Result: Sendable>(
    _ action: (Reducer) -> ReducerAction<Reducer, Result>,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Result {
    try await engine.dispatch(action(engine.reducer))
  }

  /// Starts an action of the reducer from synchronous code and returns its
  /// task; see `ReducerStore.dispatch(_:)`.
  ///
  /// - Parameter action: Picks the action from the reducer.
  /// - Returns: The action's task: `try await task.value` for its result,
  ///   `task.cancel()` to cancel it.
  @discardableResult
  public func dispatch<Result: Sendable>(
    _ action: (Reducer) -> ReducerAction<Reducer, Result>
  ) -> Task<Result, any Error> {
    engine.start(action(engine.reducer))
  }

  /// A scoped store for a part of this fragment, with its own reducer;
  /// it writes through the same root.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's reducer.
  /// - Returns: The scoped store; it keeps the root alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  @inlinable
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child
  ) -> ScopedStore<Child> {
    makeScope(keyPath, reducer: reducer, commitDirectly: engine.commitDirectly(at: keyPath))
  }

  @usableFromInline
  func makeScope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable, reducer: Child,
    commitDirectly: @escaping @Sendable (ReducerMutation<Child.TargetState>) -> Bool
  ) -> ScopedStore<Child> {
    ScopedStore<Child>(anchor: anchor.appending(StateField(keyPath)), reducer: reducer, commitDirectly: commitDirectly)
  }

  /// This scope with one dependency overridden: a scoped store on the
  /// same part with the same reducer, whose mutations, actions (and what
  /// they commit), `dependencies` and further scopes read `value` for
  /// `keyPath`; the rest is inherited from this scope. This scope and its
  /// root keep their values.
  ///
  /// ```swift
  /// let counter = store.scope(\.counter, reducer: CounterReducer()).dependency(\.clock, clock)
  /// let badge = counter.scope(\.badge, reducer: BadgeReducer())   // reads `clock` too
  /// ```
  ///
  /// Chain it to override several. It is `ActionReducer.dependency(_:_:)`
  /// for a scope: a scope with an enum-action feature overrides on its
  /// reducer instead (`scope(\.part, reducer: Part().dependency(\.clock,
  /// clock))`).
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's property of `DependencyValues`.
  ///   - value: The value the new scope reads.
  /// - Returns: The scoped store with the dependency overridden; it keeps
  ///   the root alive.
  /// - Complexity: O(1) to make; each of its commits sets the values in
  ///   effect for its reduction, and commits through its root's generic
  ///   path rather than the path specialized where a scope is made.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> ScopedStore<Reducer> {
    var values = fragment.dependencies
    values[keyPath: keyPath] = value
    return ScopedStore(anchor: DependencyAnchor(base: anchor, values: values), reducer: engine.reducer, commitDirectly: { _ in false })
  }

  /// Waits until no action dispatched through this scoped store is
  /// running; for test tooling.
  public func waitUntilIdle() async {
    await engine.inFlight.waitUntilIdle()
  }
}

extension Store {
  /// A store for the part of this state at `keyPath`, with its own method
  /// reducer; see `ScopedStore`. Its mutations are committed here in place.
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer; its activities, if any, are of
  ///     this store's activity type.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  @inlinable
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child
  ) -> ScopedStore<Child> {
    let field = StateField(keyPath)
    return makeScope(
      field, reducer: reducer, follow: { [self] in derived(.select(keyPath)) },
      commitDirectly: { [self] mutation in
        _ = countedCommit(trace: mutation.trace) { ref in ref.modify { field.modify(&$0, mutation.body) } }
        return true
      })
  }

  @usableFromInline
  func makeScope<Child: ReducerType>(
    _ field: StateField<State, Child.TargetState>, reducer: Child,
    follow: @escaping @Sendable () -> Derived<Child.TargetState>,
    commitDirectly: @escaping @Sendable (ReducerMutation<Child.TargetState>) -> Bool
  ) -> ScopedStore<Child> {
    ScopedStore(anchor: anchor(field, follow: follow), reducer: reducer, commitDirectly: commitDirectly)
  }

  /// The part at `field`, written in place; `follow` as in
  /// `KeyPathAccess`.
  func anchor<Part: Equatable & Sendable>(
    _ field: StateField<State, Part>, follow: (@Sendable () -> Derived<Part>)? = nil
  ) -> any ScopeAnchor<Part> {
    KeyPathAccess(rootStore: RootStore(store: self, owner: nil), field: field, follow: follow)
  }
}

extension ReducerStore {
  /// A store for the part of this state at `keyPath`, with its own method
  /// reducer; see `ScopedStore`. Its mutations go through this store's
  /// middlewares, under their own names.
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer; its activities, if any, are of
  ///     this store's activity type.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  @inlinable
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child
  ) -> ScopedStore<Child> {
    makeScope(
      StateField(keyPath), reducer: reducer, follow: { [core] in core.derived(.select(keyPath)) },
      commitDirectly: engine.commitDirectly(at: keyPath))
  }

  @usableFromInline
  func makeScope<Child: ReducerType>(
    _ field: StateField<State, Child.TargetState>, reducer: Child,
    follow: @escaping @Sendable () -> Derived<Child.TargetState>,
    commitDirectly: @escaping @Sendable (ReducerMutation<Child.TargetState>) -> Bool
  ) -> ScopedStore<Child> {
    ScopedStore(anchor: anchor(field, follow: follow), reducer: reducer, commitDirectly: commitDirectly)
  }

  /// The part at `field`, written through this store's pipeline;
  /// `follow` as in `KeyPathAccess`.
  func anchor<Part: Equatable & Sendable>(
    _ field: StateField<State, Part>, follow: (@Sendable () -> Derived<Part>)? = nil
  ) -> any ScopeAnchor<Part> {
    let root = RootStore(
      store: core, owner: self, pipeline: { [engine] mutation in engine.commitThroughPipeline(mutation) },
      announce: { [engine] info in try await engine.admitThroughPipeline(info) })
    return KeyPathAccess(rootStore: root, field: field, follow: follow)
  }
}
