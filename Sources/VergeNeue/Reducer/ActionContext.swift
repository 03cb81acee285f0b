/// What a method-reducer action works with: the state, its reducer's
/// mutations and actions, activities, and the store's task manager.
///
/// ```swift
/// func refresh() -> Action<Int> {
///   .init { context in
///     context.commit { $0.setLoading(true) }
///     let photos = try await self.api.photos()
///     context.commit { $0.setPhotos(photos) }
///     context.send(.refreshed)
///     return context.state.photos.count
///   }
/// }
/// ```
///
/// A context keeps its store (for a scoped store, the parent) alive while
/// the action runs.
public struct ActionContext<Reducer: ReducerType>: Sendable {
  let engine: ReducerEngine<Reducer>
  /// The dispatch this context belongs to.
  public let action: ActionInfo

  /// The reducer the action belongs to.
  public var reducer: Reducer { engine.reducer }

  /// The current state (of the scoped fragment, for a scoped store).
  ///
  /// - Complexity: O(1): a short lock to take a copy-on-write snapshot.
  public var state: Reducer.TargetState { engine.access.read() }

  /// Commits a mutation of the reducer, through the store's middlewares.
  ///
  /// ```swift
  /// context.commit { $0.syncIncrement(adding: 1) }
  /// ```
  ///
  /// - Parameter mutation: Picks the mutation from the reducer.
  public func commit(_ mutation: (Reducer) -> ReducerMutation<Reducer.TargetState>) {
    engine.commitThroughPipeline(mutation(engine.reducer))
  }

  /// Runs another action of the reducer and waits for it.
  ///
  /// - Parameter action: Picks the action from the reducer.
  /// - Returns: The action's result.
  /// - Throws: What the action threw, or `NeueError.dropped` when a
  ///   middleware dropped it.
  @discardableResult
  public func dispatch<Result: Sendable>(
    _ action: (Reducer) -> ReducerAction<Reducer, Result>
  ) async throws -> Result {
    try await engine.dispatch(action(engine.reducer))
  }

  /// Sends a one-off event to the store's activity subscribers.
  ///
  /// - Parameter activity: The event.
  public func send(_ activity: Reducer.TargetActivity) {
    engine.sendActivity(activity)
    engine.observers.emit(.activitySent(activity))
  }

  /// The store's task manager, for work that outlives the action (keyed,
  /// cancellable, cancelled with the store).
  public var taskManager: TaskManager { engine.taskManager }
}
