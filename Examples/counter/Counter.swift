import Verge

/// The counter feature's state, shared by the three styles.
struct Counter: Equatable, Sendable {
  /// The current value.
  var count = 0
}

/// The three ways the example writes the same counter.
enum CounterStyle: String, CaseIterable, Sendable {
  /// Free commits on the core `Store`.
  case free
  /// A method reducer (`ReducerType`) on a `ReducerStore`.
  case method
  /// An enum-action reducer (`ActionReducer`) with an effect on an `ActionStore`.
  case action

  /// A short human name for the screen.
  var title: String {
    switch self {
    case .free: return "free commit (Store)"
    case .method: return "method reducer (ReducerStore)"
    case .action: return "enum actions (ActionStore)"
    }
  }

  /// The style after this one, wrapping around.
  var next: CounterStyle {
    let all = CounterStyle.allCases
    let index = all.firstIndex(of: self)!
    return all[(index + 1) % all.count]
  }
}

/// Waits for the delayed increment; injected so tests never sleep for real.
///
/// It must throw `CancellationError` (or return promptly) when its task is
/// cancelled, as `Task.sleep` does.
typealias Delay = @Sendable () async throws -> Void

/// A handle to wait for a delayed increment to land or be cancelled.
typealias Pending = @Sendable () async -> Void

/// What the terminal shell needs from one counter implementation.
///
/// Each style implements it on top of its own store, so the shell drives
/// them all the same way.
protocol CounterModel: AnyObject, Sendable {
  /// Which style this is.
  var style: CounterStyle { get }
  /// The current count.
  var count: Int { get }
  /// How many delayed increments are still waiting.
  var pendingIncrements: Int { get }
  /// How many steps `undo` can take back.
  var undoCount: Int { get }
  /// How many steps `redo` can re-apply.
  var redoCount: Int { get }

  /// Adds one now.
  func increment()
  /// Subtracts one now.
  func decrement()
  /// Adds one after the delay; a second call restarts the wait.
  ///
  /// - Returns: A handle that waits until the increment landed or was cancelled.
  func incrementLater() -> Pending
  /// Cancels the waiting delayed increment, if any.
  func cancelIncrementLater()
  /// Takes back the last change.
  ///
  /// - Returns: `false` when there was nothing to undo.
  func undo() -> Bool
  /// Re-applies the last undone change.
  ///
  /// - Returns: `false` when there was nothing to redo.
  func redo() -> Bool
  /// Calls `onChange` after every change of the count, on the committing thread.
  ///
  /// - Parameter onChange: Receives the new count.
  /// - Returns: The subscription; releasing it stops the calls.
  func observe(_ onChange: @escaping @Sendable (Int) -> Void) -> StoreSubscription
}
