extension Effect {
  /// The same work, sending its actions as `Parent` actions: how a parent
  /// feature runs a child's effects (`ActionReducer.embed`, `forEach`,
  /// `ifLet` do it for you).
  ///
  /// ```swift
  /// return RowFeature().reduce(into: &state.row, action: rowAction).map(Action.row)
  /// ```
  ///
  /// Cancellation ids and activities are kept as they are: a child reduced
  /// by hand this way shares its ids with its parent and with any other
  /// child mapped the same way. The composing functions give each child
  /// ids of its own instead (see `cancel(id:)`).
  ///
  /// - Parameter transform: Wraps a child action into the parent's.
  /// - Returns: The effect, typed by the parent's actions.
  @inlinable
  public func map<Parent: Sendable>(_ transform: @escaping @Sendable (Action) -> Parent) -> Effect<Parent, Activity> {
    isNone ? .none : mapItems(transform, scope: nil, marked: false)
  }

  /// A composed child's effect as its parent runs it: its actions wrapped
  /// by `transform`; with a `scope`, every id it marks or cancels taken
  /// into that scope, so that it reaches only what the same child marked
  /// (a child's `"timer"` is not its sibling's, nor its parent's); and when
  /// `marked`, each task also marked with the scope itself, so that
  /// removing the child cancels them.
  ///
  /// - Complexity: O(items + ids), in one pass; one allocation per scoped id.
  @usableFromInline
  func embedded<Parent: Sendable>(
    _ transform: @escaping @Sendable (Action) -> Parent, scope: EffectID, marked: Bool
  ) -> Effect<Parent, Activity> {
    mapItems(transform, scope: scope, marked: marked)
  }

  @usableFromInline
  func mapItems<Parent: Sendable>(
    _ transform: @escaping @Sendable (Action) -> Parent, scope: EffectID?, marked: Bool
  ) -> Effect<Parent, Activity> {
    Effect<Parent, Activity>(
      items: items.map { item in
        switch item {
        case .send(let action): return .send(transform(action))
        case .cancel(let id): return .cancel(scope.map { id.scoped(in: $0) } ?? id)
        case .activity(let activity): return .activity(activity)
        case .run(let run):
          var mapped = run.sending { send in
            Send(deliver: { send(transform($0)) }, deliverActivity: { send(activity: $0) })
          }
          if let scope {
            mapped.ids = run.ids.map { $0.scoped(in: scope) }
            mapped.inFlightIDs = run.inFlightIDs.map { $0.scoped(in: scope) }
            if marked { mapped.ids.append(scope) }
          }
          return .run(mapped)
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
      guard case .run(var run) = item else { return item }
      tasks += 1
      let operation = run.operation
      run.operation = { send in
        defer { running.end() }
        try await operation(send)
      }
      return .run(run)
    }
    return (Effect(items: items), tasks)
  }
}

