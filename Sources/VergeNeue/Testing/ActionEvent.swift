/// Where an action came from.
public enum ActionOrigin: Sendable, Equatable {
  /// `send` on the store.
  case send
  /// An effect (`Send` or `Effect.send`).
  case effect
  /// A middleware's `dispatch`.
  case middleware
}

/// What an event observer of an `ActionStore` sees; for test tooling.
///
/// Events are emitted synchronously, after the change, outside the store's
/// lock, in reduction order.
public enum ActionEvent<Action: Sendable, State: Sendable>: Sendable {
  /// `action` was reduced, turning `before` into `after`. Boxed
  /// (`indirect`), so that an event is a few words whatever the size of the
  /// state.
  indirect case reduced(Action, before: State, after: State, origin: ActionOrigin)
  /// An effect ended by throwing `error` (other than cancellation).
  case effectFailed(any Error)
}
