@_spi(Internal) import Verge

/// A store for one part of a parent store's state, picked by a writable key
/// path, with its own method reducer. It reads and writes like a root
/// store.
///
/// ```swift
/// let photo = store.scope(\.selectedPhoto, reducer: PhotoReducer())
/// photo.commit { $0.like() }                   // changes the parent's state in place
/// photo.sinkState { changes in render(changes.current) }.storeWhileSourceActive()
/// let detail = photo.scope(\.comments, reducer: CommentsReducer())   // scopes of scopes
/// ```
///
/// - Commits go into the parent's core store at the key path, in place:
///   the parent's subscribers and commit middlewares see them, under the
///   mutation's name. The scoped store's own `middlewares` run first.
/// - `sinkState` and `derived` notify only when the fragment changes.
/// - It is cheap to make: nothing subscribes to the parent until you call
///   `sinkState` or `derived`.
/// - It keeps its root alive: the store it was cut from (for a scope of a
///   scope, the first one's) lives at least as long as the scoped store, as
///   a child store holds its root in The Composable Architecture. So a
///   scoped store never finds its parent gone, and nothing on it throws for
///   that reason. Keep scoped stores where you keep the root store (a view
///   model, a view), not in a handler the root store holds: that would be a
///   reference cycle, like a handler that captures the store.
public final class ScopedStore<Reducer: ReducerType>: Sendable {
  /// The fragment's type.
  public typealias State = Reducer.TargetState

  let anchor: any ScopeAnchor<State>
  let engine: ReducerEngine<Reducer>
  let follower = FragmentFollower<State>()

  init(anchor: any ScopeAnchor<State>, reducer: Reducer, middlewares: [Middleware<ReducerMessage<State>, State>]) {
    self.anchor = anchor
    // Activities go to the root store; `scope` lets a reducer with
    // activities in only when they are of the root store's activity type.
    engine = ReducerEngine(
      reducer: reducer, middlewares: middlewares, taskManager: TaskManager(),
      sendActivity: { activity in _ = anchor.sendActivity(activity) })
  }

  /// The reducer.
  public var reducer: Reducer { engine.reducer }

  /// This scoped store's async work, cancelled when it goes away.
  public var taskManager: TaskManager { engine.taskManager }

  /// The fragment's current value.
  ///
  /// - Complexity: O(1): a short lock to take a copy-on-write snapshot.
  public var state: State { anchor.read() }

  /// Commits a mutation of the reducer into the parent's state; see
  /// `ReducerStore.commit(_:)`.
  ///
  /// - Parameter mutation: Picks the mutation from the reducer.
  public func commit(_ mutation: (Reducer) -> ReducerMutation<State>) {
    engine.commit(mutation(engine.reducer), on: anchor)
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
    try await engine.dispatch(action(engine.reducer), on: anchor)
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
    engine.start(action(engine.reducer), on: anchor)
  }

  /// Subscribes to the fragment: the current value at once (unless
  /// `dropsFirst`), then each change of the fragment alone.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current value.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation (`#isolation`): from main-actor code
  ///     `receive` runs on the main actor, as for `Store.sinkState`.
  ///   - receive: Gets each change.
  /// - Returns: The token; `storeWhileSourceActive()` ties it to the root
  ///   store.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<State>) -> Void
  ) -> StoreSubscription {
    follower.follow(anchor).sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation, receive)
  }

  /// The fragment's changes as an async sequence: the current value first,
  /// then each change of the fragment alone; see `Store.changes`.
  public var changes: ChangesSequence<State> { follower.follow(anchor).changes }

  /// Starts async work owned by this scoped store, which cancels it when it
  /// goes away; see `Store.task(key:mode:priority:_:)`.
  ///
  /// - Parameters:
  ///   - key: The line the task belongs to; unique by default.
  ///   - mode: What to do with the tasks already under `key`.
  ///   - priority: The task's priority.
  ///   - operation: The work.
  /// - Returns: The task.
  @discardableResult
  public func task(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    taskManager.task(key: key, mode: mode, priority: priority, operation)
  }

  /// A value derived from the fragment.
  ///
  /// - Parameter pipeline: How to compute it.
  /// - Returns: The derived value.
  public func derived<Output>(_ pipeline: Pipeline<State, Output>) -> Derived<Output> {
    follower.follow(anchor).derived(pipeline)
  }

  /// A scoped store for a part of this fragment.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's reducer.
  ///   - middlewares: The new scoped store's own pipeline.
  /// - Returns: The scoped store; it writes into the same parent store and
  ///   keeps it alive.
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child,
    middlewares: [Middleware<ReducerMessage<Child.TargetState>, Child.TargetState>] = []
  ) -> ScopedStore<Child> where Child.TargetActivity == Never {
    ScopedStore<Child>(
      anchor: anchor.appending(SendableWritableKeyPath(keyPath)), reducer: reducer, middlewares: middlewares)
  }

  /// Adds an observer of mutations and actions; see
  /// `ReducerStore.observeEvents(_:)`. For test tooling.
  ///
  /// - Parameter handler: Receives each event.
  /// - Returns: A token; releasing or cancelling it removes the observer.
  public func observeEvents(_ handler: @escaping @Sendable (ReducerEvent<State>) -> Void) -> EventObservation {
    engine.observers.add(handler)
  }

  /// Waits until no dispatched action is running; for test tooling.
  public func waitUntilIdle() async {
    await engine.inFlight.waitUntilIdle()
  }
}

extension Store {
  /// A store for the part of this state at `keyPath`, with its own method
  /// reducer; see `ScopedStore`.
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer.
  ///   - middlewares: The scoped store's own pipeline.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child,
    middlewares: [Middleware<ReducerMessage<Child.TargetState>, Child.TargetState>] = []
  ) -> ScopedStore<Child> where Child.TargetActivity == Never {
    ScopedStore<Child>(
      anchor: anchor(keyPath),
      reducer: reducer, middlewares: middlewares)
  }
}

extension Store {
  /// A store for the part of this state at `keyPath`, with its own method
  /// reducer whose actions send this store's activities; see `ScopedStore`.
  ///
  /// ```swift
  /// let photo = store.scope(\.selectedPhoto, reducer: PhotoReducer(), activities: .forwardToParent)
  /// // context.send(.commentPosted) in PhotoReducer's actions reaches store.sinkActivity
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer; its `TargetActivity` is this
  ///     store's `Activity`.
  ///   - middlewares: The scoped store's own pipeline.
  ///   - activities: `.forwardToParent`: the scoped store's actions send
  ///     their activities to this store.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child,
    middlewares: [Middleware<ReducerMessage<Child.TargetState>, Child.TargetState>] = [],
    activities: ScopeActivities
  ) -> ScopedStore<Child> where Child.TargetActivity == Activity {
    ScopedStore<Child>(
      anchor: anchor(keyPath),
      reducer: reducer, middlewares: middlewares)
  }
}

/// What a scoped store of a method reducer does with the activities its
/// actions send.
public enum ScopeActivities: Sendable {
  /// Sends them to the parent store's activity subscribers; the reducer's
  /// `TargetActivity` must be the parent's `Activity`.
  case forwardToParent
}

extension ReducerStore {
  /// A store for the part of this state at `keyPath`, with its own method
  /// reducer whose actions send this store's activities; see `ScopedStore`.
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer; its `TargetActivity` is this
  ///     store's `Activity`.
  ///   - middlewares: The scoped store's own pipeline.
  ///   - activities: `.forwardToParent`.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child,
    middlewares: [Middleware<ReducerMessage<Child.TargetState>, Child.TargetState>] = [],
    activities: ScopeActivities
  ) -> ScopedStore<Child> where Child.TargetActivity == Activity {
    ScopedStore<Child>(anchor: core.anchor(keyPath, owner: self), reducer: reducer, middlewares: middlewares)
  }
}

extension ScopedStore {
  /// A scoped store for a part of this fragment whose reducer sends the
  /// same activities as this one's, forwarded to the root store.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's reducer.
  ///   - middlewares: The new scoped store's own pipeline.
  ///   - activities: `.forwardToParent`.
  /// - Returns: The scoped store; it writes into the same parent store and
  ///   keeps it alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child,
    middlewares: [Middleware<ReducerMessage<Child.TargetState>, Child.TargetState>] = [],
    activities: ScopeActivities
  ) -> ScopedStore<Child> where Child.TargetActivity == Reducer.TargetActivity {
    ScopedStore<Child>(
      anchor: anchor.appending(SendableWritableKeyPath(keyPath)), reducer: reducer, middlewares: middlewares)
  }
}
