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

extension Derived where Value: Equatable {
  /// Verge's `sinkChangedPrimitiveValue`: calls `receive` with the value,
  /// at once and then each time it changes.
  ///
  /// ```swift
  /// count.sinkChangedPrimitiveValue { value in label.text = "\(value)" }.storeWhileSourceActive()
  /// ```
  ///
  /// A derived value publishes only when its value changes, so this is
  /// `sinkState` handing on `current`; the comparison here also skips a
  /// value equal to the previous one when the pipeline compares otherwise.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current value.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each new value.
  /// - Returns: The subscription's token; see `sinkState`.
  public func sinkChangedPrimitiveValue(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    receive: @escaping (Value) -> Void
  ) -> StoreSubscription {
    sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation) { changes in
      if let previous = changes.previous, previous == changes.current { return }
      receive(changes.current)
    }
  }
}
