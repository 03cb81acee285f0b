extension Effect {
  /// The same work, sending its actions as `Parent` actions: how a parent
  /// feature runs a child's effects (`ActionReducer.embed`, `forEach`,
  /// `ifLet` do it for you).
  ///
  /// ```swift
  /// return RowFeature().reduce(into: &state.row, action: rowAction).map(Action.row)
  /// ```
  ///
  /// Cancellation ids and activities are kept as they are.
  ///
  /// - Parameter transform: Wraps a child action into the parent's.
  /// - Returns: The effect, typed by the parent's actions.
  @inlinable
  public func map<Parent: Sendable>(_ transform: @escaping @Sendable (Action) -> Parent) -> Effect<Parent, Activity> {
    isNone ? .none : mapItems(transform)
  }

  @usableFromInline
  func mapItems<Parent: Sendable>(_ transform: @escaping @Sendable (Action) -> Parent) -> Effect<Parent, Activity> {
    Effect<Parent, Activity>(
      items: items.map { item in
        switch item {
        case .send(let action): return .send(transform(action))
        case .cancel(let id): return .cancel(id)
        case .activity(let activity): return .activity(activity)
        case .run(let run):
          let operation = run.operation
          return .run(
            .init(
              priority: run.priority, ids: run.ids, cancelInFlight: run.cancelInFlight, fileID: run.fileID,
              line: run.line
            ) { send in
              try await operation(Send(deliver: { send(transform($0)) }, deliverActivity: { send(activity: $0) }))
            })
        }
      })
  }
}
