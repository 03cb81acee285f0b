extension Derived {
  /// Verge's name for `sinkState(dropsFirst:queue:isolation:_:)` on a
  /// derived value; it is that method, under the name Verge code calls.
  ///
  /// ```swift
  /// count.sinkValue { changes in label.text = "\(changes.current)" }.storeWhileSourceActive()
  /// ```
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current value.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each change; `previous` is `nil` on the first delivery.
  /// - Returns: The subscription's token; see `sinkState`.
  public func sinkValue(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<Value>) -> Void
  ) -> StoreSubscription {
    sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation, receive)
  }
}
