import Verge
/// A store whose every change is a named mutation or action of a method
/// reducer (`ReducerType`), built on a core `Store`.
///
/// ```swift
/// let store = ReducerStore(initialState: RootState(), reducer: RootReducer())
/// store.commit { $0.syncIncrement(adding: 1) }
/// try await store.dispatch { $0.asyncIncrement() }
/// store.sinkState { changes in
///   changes.ifChanged(\.count) { count in render(count) }
/// }
/// .storeWhileSourceActive()
/// ```
///
/// `state`, `sinkState`, `derived`, `changes`, activities and `task` behave
/// exactly as on the core store, which is `core` (use it for what this type
/// does not forward; a free `core.commit { }` bypasses the middlewares).
public final class ReducerStore<Reducer: ReducerType>: ReadableStore, Sendable {
  /// The state type.
  public typealias State = Reducer.TargetState
  /// The activity type.
  public typealias Activity = Reducer.TargetActivity

  /// The whole of `core`: reads, subscriptions, `derived` and `task` come
  /// from `ReadableStore`, exactly as on the core store.
  @inlinable
  public var storeView: StoreView<State, Activity> { StoreView(core) }

  /// The core store that holds the state.
  public let core: Store<State, Activity>
  /// What this store does, shared with `ScopedStore`.
  @usableFromInline let engine: ReducerEngine<Reducer>
  /// Whether the core store has commit middlewares, which see each
  /// mutation's trace; fixed at creation.
  @usableFromInline let hasCommitMiddlewares: Bool

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - reducer: The reducer.
  ///   - withDependencies: Overrides some of the dependency values the store
  ///     takes from where it is made; its mutations, its actions and its
  ///     scopes read them (see `DependencyValues`).
  ///   - middlewares: The pipeline around every mutation and action, in order.
  ///   - commitMiddlewares: Hooks of the core store, which also see free
  ///     commits made on `core`.
  public init(
    initialState: State,
    reducer: Reducer,
    withDependencies: (inout DependencyValues) -> Void = { _ in },
    middlewares: [Middleware<ReducerMessage<State>, State>] = [],
    commitMiddlewares: [CommitMiddleware<State>] = []
  ) {
    let core = Store<State, Activity>(
      initialState: initialState, middlewares: commitMiddlewares, withDependencies: withDependencies)
    self.core = core
    hasCommitMiddlewares = !commitMiddlewares.isEmpty
    // Commit middlewares see each mutation's name, which the direct commit
    // leaves empty.
    engine = ReducerEngine(
      reducer: reducer, access: StoreAccess(store: core), core: commitMiddlewares.isEmpty ? core : nil,
      middlewares: middlewares, taskManager: core.taskManager,
      sendActivity: { [weak core] activity in core?.send(activity) }, dependencies: core.dependencies)
  }

  /// The reducer.
  public var reducer: Reducer { engine.reducer }

  /// Commits a mutation of the reducer: synchronously, through the
  /// middlewares, then into the core store under the mutation's name.
  ///
  /// ```swift
  /// store.commit { $0.syncIncrement(adding: 1) }
  /// ```
  ///
  /// - Parameter mutation: Picks the mutation from the reducer.
  /// - Complexity: The core commit's cost; with middlewares or event
  ///   observers, the previous state is kept as well.
  @inlinable
  public func commit(_ mutation: (Reducer) -> ReducerMutation<State>) {
    let mutation = mutation(engine.reducer)
    guard engine.commitsDirectly && !hasCommitMiddlewares else {
      engine.commitThroughPipeline(mutation)
      return
    }
    // Specialized in the caller's module: straight into the core commit.
    // Without commit middlewares no one reads the trace, so its name (costly
    // to form) is left empty.
    core.commit(file: mutation.file, function: mutation.function, line: mutation.line) { ref in
      ref.modify { mutation.body(&$0) }
    }
  }

  /// Runs an action of the reducer and waits for it: the form for async
  /// code.
  ///
  /// ```swift
  /// let count = try await store.dispatch { $0.fetchPhotos() }
  /// ```
  ///
  /// The action runs in the calling task (cancelling that task cancels it).
  /// If it throws, the mutations it committed before stay (each is a
  /// finished change), nothing after is committed, and the error is rethrown.
  /// In async code `store.dispatch { }` means this form; in synchronous code,
  /// `dispatch(_:)`, which starts the action and returns its task.
  ///
  /// - Parameters:
  ///   - action: Picks the action from the reducer.
  ///   - isolation: The caller's actor, where `action` is called (so a
  ///     main-actor caller may pass a closure that is not `Sendable`).
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

  /// Starts an action of the reducer from synchronous code (a button
  /// handler) and returns its task at once: the form for synchronous code.
  ///
  /// ```swift
  /// func refreshTapped() {
  ///   store.dispatch { $0.fetchPhotos() }           // fire and forget
  ///   let upload = store.dispatch { $0.upload(photo) }
  ///   upload.cancel()                               // or: try await upload.value
  /// }
  /// ```
  ///
  /// The action starts on the calling thread, before this returns, and runs
  /// there until its first suspension; what it commits before suspending is
  /// in the state when `dispatch` returns, and actions dispatched one after
  /// another start in that order. It then goes on in its own task, which
  /// the store does not own: it ends on its own or by `cancel()` (the action
  /// sees `Task.isCancelled`, and `value` throws what it throws then,
  /// usually `CancellationError`). On Apple platforms before the 26
  /// releases, which lack `Task.immediate`, the task is enqueued instead and
  /// the action starts shortly after `dispatch` returns.
  ///
  /// - Parameter action: Picks the action from the reducer.
  /// - Returns: The action's task: `try await task.value` for its result
  ///   (or what it threw, `NeueError.dropped` when a middleware dropped it),
  ///   `task.cancel()` to cancel it.
  @discardableResult
  public func dispatch<Result: Sendable>(
    _ action: (Reducer) -> ReducerAction<Reducer, Result>
  ) -> Task<Result, any Error> {
    engine.start(action(engine.reducer))
  }

  /// Sends an activity; see `Store.send(_:)`.
  ///
  /// - Parameter activity: The event.
  public func send(_ activity: Activity) {
    core.send(activity)
  }

  /// Applies a recording's mutations to this store, to reproduce the state
  /// the recorded store reached.
  ///
  /// The mutations are committed to `core` directly, skipping this store's
  /// middlewares; action announcements are skipped (their mutations were
  /// recorded on their own).
  ///
  /// - Parameter recording: What a `Recorder` captured.
  /// - Throws: `NeueError.replayStartMismatch` when the state is not the
  ///   recording's start state; nothing is applied then.
  public func replay(_ recording: Recording<ReducerMessage<State>, State>) throws(NeueError) {
    try recording.verifyStart(core.untrackedState)
    for message in recording.messages {
      if case .mutation(let mutation) = message {
        engine.access.write(mutation.trace) { mutation.body(&$0) }
      }
    }
  }
}

// MARK: - Test tooling

extension ReducerStore {
  /// Adds an observer that sees every committed mutation (with the state
  /// before and after), and every action's start and end.
  ///
  /// Meant for test tooling such as VergeTesting's `TestStore`; apps should
  /// use `sinkState` and middlewares. The handler runs synchronously on the
  /// thread that made the change, after it, outside the store's lock.
  ///
  /// - Parameter handler: Receives each event.
  /// - Returns: A token; releasing or cancelling it removes the observer.
  /// - Complexity: While an observer is installed every commit keeps the
  ///   previous state, so it copies the collections it touches.
  public func observeEvents(_ handler: @escaping @Sendable (ReducerEvent<State>) -> Void) -> EventObservation {
    engine.observers.add(handler)
  }

  /// How many dispatched actions are running; for test tooling.
  public var actionsInFlight: Int { engine.inFlight.count }

  /// Waits until no dispatched action is running, without polling; for
  /// test tooling.
  public func waitUntilIdle() async {
    await engine.inFlight.waitUntilIdle()
  }
}
