import Synchronization

/// A token for an event observer added with `observeEvents(_:)`; cancelling
/// it or releasing it removes the observer.
///
/// Meant for test tooling (the `TestStore` of VergeTesting); apps use
/// `sinkState` and middlewares instead.
public final class EventObservation: Sendable {
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(onCancel)
  }

  deinit {
    cancel()
  }

  /// Removes the observer; calling it again does nothing.
  public func cancel() {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }
}
