@_spi(Internal) import Verge

/// A store for one part of a parent store's state, picked by a writable key
/// path, driven by enum actions and its own `ActionReducer`.
///
/// ```swift
/// let store = ActionStore(initialState: AppFeature.State(), reducer: AppFeature())
/// let search = store.scope(\.search, reducer: SearchFeature(api: api))
/// search.send(.queryChanged("swift"))          // changes the parent's state in place
/// await search.send(.submit).finish()          // waits for its effects
/// search.sinkState { changes in render(changes.current) }.storeWhileSourceActive()
/// let filter = search.scope(\.filter, reducer: FilterFeature())   // scopes of scopes
/// ```
///
/// - Each action is reduced into the parent's core store at the key path,
///   in place: the parent's subscribers and commit middlewares see it. The
///   scoped store's own `middlewares` run first.
/// - The re-entrancy rule is `ActionStore`'s: actions are reduced one at a
///   time in the order sent; a send made while this scoped store is reducing
///   is queued, never dropped, never deadlocks.
/// - Effects belong to the scoped store: they run while it lives, are
///   cancelled by id, by `StoreTask.cancel()`, by `cancelAllEffects()`, and
///   when it goes away.
/// - `sinkState` and `derived` notify only when the fragment changes.
/// - It is cheap to make: nothing subscribes to the parent until you call
///   `sinkState` or `derived`.
/// - It keeps its root alive, as `ScopedStore` does: the store it was cut
///   from lives at least as long as the scoped store, so nothing on it
///   throws for want of a parent.
/// - Activities its effects send reach the root store's `sinkActivity` when
///   the root store's activity type is `Feature.Activity`; otherwise they
///   are reported to event observers as `effectFailed` with
///   `NeueError.activityTypeMismatch`.
public final class ScopedActionStore<Feature: ActionReducer>: Sendable {
  /// The fragment's type.
  public typealias State = Feature.State
  /// The action type.
  public typealias Action = Feature.Action

  let anchor: any ScopeAnchor<State>
  let engine: ActionEngine<Feature>
  let follower = FragmentFollower<State>()
  /// The scoped store's own async work; cancelled when it goes away.
  public let taskManager = TaskManager()

  init(anchor: any ScopeAnchor<State>, reducer: Feature, middlewares: [Middleware<Action, State>]) {
    self.anchor = anchor
    engine = ActionEngine(
      feature: reducer, access: anchor, middlewares: middlewares,
      activitySink: { activity in
        guard activity is Feature.Activity, anchor.sendActivity(activity) else { return anchor.activityTypeName }
        return nil
      })
  }

  /// The reducer.
  public var reducer: Feature { engine.feature }

  /// The fragment's current value.
  ///
  /// - Complexity: O(1): a short lock to take a copy-on-write snapshot.
  public var state: State { anchor.read() }

  /// Sends an action: through this scoped store's middlewares to its
  /// reducer, which changes the fragment in the parent's state; then starts
  /// the effects it returned. See the re-entrancy rule on `ActionStore`.
  ///
  /// - Parameter action: What happened.
  /// - Returns: A handle to wait for the reduction and its effects, or to
  ///   cancel those effects.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    engine.send(action, cause: .send)
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

  /// A scoped store, driven by enum actions, for a part of this fragment.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's reducer.
  ///   - middlewares: The new scoped store's own pipeline.
  /// - Returns: The scoped store; it writes into the same parent store and
  ///   keeps it alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable,
    reducer: Child,
    middlewares: [Middleware<Child.Action, Child.State>] = []
  ) -> ScopedActionStore<Child> {
    ScopedActionStore<Child>(
      anchor: anchor.appending(SendableWritableKeyPath(keyPath)), reducer: reducer, middlewares: middlewares)
  }

  /// A scoped store, driven by a method reducer, for a part of this
  /// fragment.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's reducer.
  ///   - middlewares: The new scoped store's own pipeline.
  /// - Returns: The scoped store; it writes into the same parent store and
  ///   keeps it alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ReducerType>(
    _ keyPath: WritableKeyPath<State, Child.TargetState> & Sendable,
    reducer: Child,
    middlewares: [Middleware<ReducerMessage<Child.TargetState>, Child.TargetState>] = []
  ) -> ScopedStore<Child> where Child.TargetActivity == Never {
    ScopedStore<Child>(
      anchor: anchor.appending(SendableWritableKeyPath(keyPath)), reducer: reducer, middlewares: middlewares)
  }
}

// MARK: - Test tooling

extension ScopedActionStore {
  /// Adds an observer of reduced actions and failed effects; see
  /// `ActionStore.observeEvents(_:)`. For test tooling.
  ///
  /// - Parameter handler: Receives each event.
  /// - Returns: A token; releasing or cancelling it removes the observer.
  public func observeEvents(_ handler: @escaping @Sendable (ActionEvent<Action, State>) -> Void) -> EventObservation {
    engine.observers.add(handler)
  }

  /// Adds an observer of reductions with their causes and of each effect
  /// task's start and end; see `ActionStore.observeLifecycle(_:)`. For test
  /// tooling.
  ///
  /// - Parameter handler: Receives each event.
  /// - Returns: A token; releasing or cancelling it removes the observer.
  public func observeLifecycle(
    _ handler: @escaping @Sendable (ActionLifecycleEvent<Action, State>) -> Void
  ) -> EventObservation {
    engine.lifecycle.add(handler)
  }

  /// Cancels every running effect of this scoped store; for test tooling.
  public func cancelAllEffects() {
    engine.cancelAll()
  }

  /// How many effects are running; for test tooling.
  public var effectsInFlight: Int { engine.effectsInFlight }

  /// Waits, without polling, until no action is queued and no effect runs;
  /// for test tooling.
  public func waitUntilIdle() async {
    await engine.inFlight.waitUntilIdle()
  }
}

// MARK: - Making scoped stores

extension Store {
  /// A store for the part of this state at `keyPath`, driven by enum actions
  /// and its own reducer; see `ScopedActionStore`.
  ///
  /// ```swift
  /// let search = store.scope(\.search, reducer: SearchFeature())
  /// search.send(.queryChanged("swift"))
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer.
  ///   - middlewares: The scoped store's own pipeline.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable,
    reducer: Child,
    middlewares: [Middleware<Child.Action, Child.State>] = []
  ) -> ScopedActionStore<Child> {
    ScopedActionStore<Child>(
      anchor: anchor(keyPath),
      reducer: reducer, middlewares: middlewares)
  }
}

extension ActionStore {
  /// A store for the part of this state at `keyPath`, driven by enum actions
  /// and its own reducer; see `ScopedActionStore`.
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer.
  ///   - middlewares: The scoped store's own pipeline.
  /// - Returns: The scoped store. It writes into `core` directly (this
  ///   store's reducer and middlewares do not see its actions) and keeps
  ///   this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable,
    reducer: Child,
    middlewares: [Middleware<Child.Action, Child.State>] = []
  ) -> ScopedActionStore<Child> {
    ScopedActionStore<Child>(anchor: core.anchor(keyPath, owner: self), reducer: reducer, middlewares: middlewares)
  }

  /// A store for the part of this state at `keyPath`, driven by a method
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
    ScopedStore<Child>(anchor: core.anchor(keyPath, owner: self), reducer: reducer, middlewares: middlewares)
  }
}

extension ReducerStore {
  /// A store for the part of this state at `keyPath`, driven by enum actions
  /// and its own reducer; see `ScopedActionStore`.
  ///
  /// - Parameters:
  ///   - keyPath: Where the fragment lives in this state.
  ///   - reducer: The fragment's reducer.
  ///   - middlewares: The scoped store's own pipeline.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable,
    reducer: Child,
    middlewares: [Middleware<Child.Action, Child.State>] = []
  ) -> ScopedActionStore<Child> {
    ScopedActionStore<Child>(anchor: core.anchor(keyPath, owner: self), reducer: reducer, middlewares: middlewares)
  }
}

extension ScopedStore {
  /// A scoped store, driven by enum actions, for a part of this fragment.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's reducer.
  ///   - middlewares: The new scoped store's own pipeline.
  /// - Returns: The scoped store; it writes into the same parent store and
  ///   keeps it alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable,
    reducer: Child,
    middlewares: [Middleware<Child.Action, Child.State>] = []
  ) -> ScopedActionStore<Child> {
    ScopedActionStore<Child>(
      anchor: anchor.appending(SendableWritableKeyPath(keyPath)), reducer: reducer, middlewares: middlewares)
  }
}
