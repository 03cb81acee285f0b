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

extension Effect {
  /// This effect with the end of each of its tasks reported to `running`,
  /// and how many tasks it has.
  @usableFromInline
  func reportingEnds(to running: RunningEffects) -> (effect: Effect, tasks: Int) {
    var tasks = 0
    let items = items.map { item -> Item in
      guard case .run(let run) = item else { return item }
      tasks += 1
      let operation = run.operation
      return .run(
        .init(
          priority: run.priority, ids: run.ids, cancelInFlight: run.cancelInFlight, fileID: run.fileID, line: run.line
        ) { send in
          defer { running.end() }
          try await operation(send)
        })
    }
    return (Effect(items: items), tasks)
  }
}

