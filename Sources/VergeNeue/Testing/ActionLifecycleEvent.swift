/// Identifies one running effect task of an `ActionStore` (or scoped action
/// store), unique within that store; for test tooling.
public struct EffectRunID: Hashable, Sendable, CustomStringConvertible {
  /// A number unique to this effect within its store, increasing in start
  /// order.
  public let rawValue: UInt64

  /// `effect #3`.
  public var description: String { "effect #\(rawValue)" }
}

/// Why an action was reduced, with the action that caused it when an effect
/// sent it; for test tooling.
public enum ActionCause<Action: Sendable>: Sendable {
  /// `send` on the store.
  case send
  /// An effect sent it. `run` is the effect task that sent it (`nil` for
  /// `Effect.send`, which is not a task); `origin` is the action whose
  /// reduction returned that effect.
  case effect(run: EffectRunID?, origin: Action)
  /// A middleware's `dispatch`.
  case middleware

  /// The coarse origin, as `ActionEvent` reports it.
  public var origin: ActionOrigin {
    switch self {
    case .send: return .send
    case .effect: return .effect
    case .middleware: return .middleware
    }
  }
}

/// Everything an event observer of an enum-action store can follow:
/// reductions with their cause, each effect task's start and end, and the
/// activities effects send.
/// Added with `observeLifecycle(_:)`; meant for test tooling such as
/// VergeTesting's `TestStore`.
///
/// Ordering: `effectStarted` comes after the `reduced` event of its origin
/// action and before any action the effect sends is reduced;
/// `effectFinished` comes once per effect, after everything it sent was
/// queued (not necessarily reduced: another thread may still be reducing
/// it; `waitUntilIdle()` waits for both). Events are emitted synchronously,
/// outside the store's lock.
public enum ActionLifecycleEvent<Action: Sendable, State: Sendable>: Sendable {
  /// `action` was reduced, turning `before` into `after`. Boxed
  /// (`indirect`), so that an event is a few words whatever the size of the
  /// state.
  indirect case reduced(Action, before: State, after: State, cause: ActionCause<Action>)
  /// The reduction of `origin` started the effect task `id`.
  case effectStarted(EffectRunID, origin: Action)
  /// The effect task `id` ended; `error` is what it threw (a
  /// `CancellationError` when it ended by cancellation and threw one), or
  /// `nil` when it returned.
  case effectFinished(EffectRunID, error: (any Error)?)
  /// An effect sent `activity` (a value of the reducer's `Activity` type)
  /// and it was delivered. `run` is the effect task that sent it (`nil`
  /// for `Effect.activity`, which is delivered right after the reduction of
  /// `origin`); `origin` is the action whose reduction returned the effect.
  case activitySent(any Sendable, run: EffectRunID?, origin: Action)
}

/// A lifecycle event as an engine hands it to its observers: for a
/// `reduced` event, also where the two states are, so that an observer
/// (VergeTesting's ledger) copies them straight to where it keeps them.
/// Binding a state out of the event would hold it on the stack, which a
/// large state on a small thread cannot afford.
///
/// `@unchecked Sendable`: the addresses are valid only during the delivery,
/// which is synchronous on the emitting thread; an observer reads them there
/// and never keeps or sends them. The event itself is `Sendable`.
@usableFromInline
package struct LifecycleDelivery<Action: Sendable, State: Sendable>: @unchecked Sendable {
  /// The event.
  package let event: ActionLifecycleEvent<Action, State>
  /// For a `reduced` event, the state before and the state after the
  /// reduction, lent for the delivery only; `nil` for the other events.
  package let states: (before: UnsafePointer<State>, after: UnsafePointer<State>)?

  init(_ event: ActionLifecycleEvent<Action, State>, states: (UnsafePointer<State>, UnsafePointer<State>)? = nil) {
    self.event = event
    self.states = states.map { (before: $0.0, after: $0.1) }
  }
}
