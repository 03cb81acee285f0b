import Dispatch

/// Where a subscriber's closure is called.
public enum DeliveryQueue: Sendable {
  /// Synchronously on the thread that committed, before `commit` returns
  /// (the default). Deliveries to one subscriber never overlap.
  case committingThread
  /// Asynchronously on the main dispatch queue, in commit order.
  case main
  /// Asynchronously on the given dispatch queue, in commit order when the
  /// queue is serial.
  case dispatch(DispatchQueue)
}
