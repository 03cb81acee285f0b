extension Derived {
  /// A derived value that follows this one and publishes on `queue`: its
  /// value, `state` and subscribers change there, in this value's order.
  ///
  /// - Parameter queue: Where the copy publishes; `.committingThread`
  ///   returns this value itself.
  /// - Returns: The value that publishes on `queue`; it keeps this one alive.
  public func derived(queue: DeliveryQueue) -> Derived<Value> {
    if case .committingThread = queue { return self }
    let relay = Derived(value, areEqual: core.isEqual, retaining: [self])
    // The first delivery (this value as it stands now) goes through the
    // queue too, so a change made while subscribing cannot overtake it.
    let subscription = core.subscribe(
      .values { [weak relay] value in relay?.core.publish(value) },
      dropsFirst: false, queue: queue,
      onTerminate: { [weak relay] in relay?.core.end() })
    relay.follow([subscription])
    return relay
  }

  /// A value derived from this one, computed with this value's changes and
  /// published on `queue`; Verge's `derived(_:queue:)`.
  ///
  /// - Parameters:
  ///   - pipeline: How to compute it.
  ///   - queue: Where it publishes.
  /// - Returns: The new derived value; it keeps this one alive.
  public func derived<Output>(_ pipeline: Pipeline<Value, Output>, queue: DeliveryQueue) -> Derived<Output> {
    derived(pipeline).derived(queue: queue)
  }
}

extension ReadableStore {
  /// A value derived from the state that publishes on `queue`: Verge's
  /// `derived(_:queue:)`.
  ///
  /// ```swift
  /// let count = store.derived(.select(\.count), queue: .main)
  /// ```
  ///
  /// The value is computed inside the store's delivery, as for
  /// `derived(_:)` (selections are cheap and must see every commit); it
  /// changes, and its subscribers are called, on `queue`, in commit order.
  /// `.committingThread` is `derived(_:)` itself.
  ///
  /// - Parameters:
  ///   - pipeline: How to compute it.
  ///   - queue: Where it publishes.
  /// - Returns: The derived value; it does not keep the store alive.
  public func derived<Output>(_ pipeline: Pipeline<State, Output>, queue: DeliveryQueue) -> Derived<Output> {
    derived(pipeline).derived(queue: queue)
  }
}
