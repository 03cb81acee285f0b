/// What an event observer of a method-reducer store sees; for test tooling.
///
/// Events are emitted synchronously on the thread that caused them, after
/// the change, outside the store's lock.
public enum ReducerEvent<State: Sendable>: Sendable {
  /// A mutation was committed, turning `before` into `after`. Boxed
  /// (`indirect`), so that an event is a few words whatever the size of the
  /// state.
  indirect case committed(ReducerMutation<State>, before: State, after: State)
  /// An action started.
  case actionStarted(ActionInfo)
  /// An action finished; `error` is what it threw, if anything.
  case actionFinished(ActionInfo, error: (any Error)?)
  /// An action sent `activity` (a value of the reducer's `TargetActivity`
  /// type) through its context, on the action's task.
  case activitySent(any Sendable)
}
