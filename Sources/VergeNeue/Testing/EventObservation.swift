import Verge

/// A token for an event observer added with `observeEvents(_:)`; cancelling
/// it or releasing it removes the observer.
///
/// Meant for test tooling (the `TestStore` of VergeTesting); apps use
/// `sinkState` and middlewares instead.
public final class EventObservation: Sendable {
  private let onCancel: SharedLock<(@Sendable () -> Void)?>

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = SharedLock(onCancel)
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
