import Dispatch

/// Verge's `queue: .mainIsolated()`: the handler is isolated to the main
/// actor even when the subscription is made from nonisolated code.
///
/// ```swift
/// store.sinkState(queue: .mainIsolated()) { changes in
///   label.text = "\(changes.count)"   // a main-actor property
/// }
/// ```
///
/// From `@MainActor` code plain `sinkState { }` already runs the handler on
/// the main actor; this form is for code that is not. The handler runs at
/// once when the change is delivered on the main actor (on the main queue)
/// and nothing is waiting, otherwise on the main queue, always in commit
/// order.
public struct MainIsolatedQueue: Sendable {
  /// Delivery on the main actor, as Verge's `.mainIsolated()`.
  ///
  /// - Returns: The queue to pass as `queue:`.
  public static func mainIsolated() -> MainIsolatedQueue { MainIsolatedQueue() }
}

extension DeliveryQueue {
  /// One serial background queue shared by the subscriptions that choose
  /// it, as Verge's `.asyncSerialBackground`: deliveries run off the
  /// committing thread, in commit order.
  public static let asyncSerialBackground: DeliveryQueue = .dispatch(
    DispatchQueue(label: "Verge.asyncSerialBackground", qos: .utility))
}

extension Store {
  /// Subscribes `receive` to the changes, called on the main actor.
  func sinkStateOnMainActor(
    dropsFirst: Bool, _ receive: @escaping @MainActor (Changes<State>) -> Void
  ) -> StoreSubscription {
    IsolatedReceiver.subscribe(
      { changes in MainActor.assumeIsolated { receive(changes) } }, isolation: MainActor.shared
    ) { deliver in
      core.subscribe(.changes(deliver), dropsFirst: dropsFirst, queue: .committingThread)
    }
  }
}

extension Derived {
  /// Subscribes to the value with a handler isolated to the main actor,
  /// from any code; Verge's `sinkState(queue: .mainIsolated())`. See
  /// ``MainIsolatedQueue``.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current value.
  ///   - queue: `.mainIsolated()`.
  ///   - receive: Gets each change, on the main actor.
  /// - Returns: The subscription's token; it keeps this derived value alive.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: MainIsolatedQueue,
    _ receive: @escaping @MainActor (Changes<Value>) -> Void
  ) -> StoreSubscription {
    IsolatedReceiver.subscribe(
      { changes in MainActor.assumeIsolated { receive(changes) } }, isolation: MainActor.shared
    ) { deliver in
      let receiveKeepingAlive: @Sendable (Changes<Value>) -> Void = { [self] changes in
        withExtendedLifetime(self) { deliver(changes) }
      }
      return core.subscribe(.changes(receiveKeepingAlive), dropsFirst: dropsFirst, queue: .committingThread)
    }
  }
}

extension ReadableStore {
  /// Subscribes to the state with a handler isolated to the main actor,
  /// from any code; Verge's `sinkState(queue: .mainIsolated())`. See
  /// ``MainIsolatedQueue``.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current state.
  ///   - queue: `.mainIsolated()`.
  ///   - receive: Gets each change, on the main actor.
  /// - Returns: The subscription's token; releasing it cancels.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: MainIsolatedQueue,
    _ receive: @escaping @MainActor (Changes<State>) -> Void
  ) -> StoreSubscription {
    switch storeView.source {
    case .store(let store): store.sinkStateOnMainActor(dropsFirst: dropsFirst, receive)
    case .fragment(let fragment): fragment.followed.sinkState(dropsFirst: dropsFirst, queue: queue, receive)
    }
  }

  /// Verge's `accumulate(queue: .mainIsolated())`: the block, and so every
  /// sink in it, runs on the main actor. See `accumulate(queue:isolation:_:)`.
  ///
  /// - Parameters:
  ///   - queue: `.mainIsolated()`.
  ///   - block: Starts the sinks for one delivery, on the main actor.
  /// - Returns: The subscription's token.
  public func accumulate(
    queue: MainIsolatedQueue,
    _ block: @escaping @MainActor (AccumulationBuilder<State>) -> Void
  ) -> StoreSubscription {
    // Only the block uses the memory, and the block runs on the main actor.
    nonisolated(unsafe) let memory = AccumulationMemory()
    return sinkState(queue: queue) { changes in
      block(AccumulationBuilder(state: changes.current, memory: memory))
    }
  }
}
