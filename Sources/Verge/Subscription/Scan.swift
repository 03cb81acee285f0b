/// A running total over the changes a subscriber receives: Verge's `Scan`,
/// for `sinkState(scan:)`.
///
/// ```swift
/// store.sinkState(scan: Scan(seed: 0) { count, _ in count += 1 }) { changes, deliveries in
///   print("delivery #\(deliveries)")
/// }
/// ```
public final class Scan<Element, Accumulate: Sendable>: Sendable {
  /// Folds one element into the running value.
  public typealias Accumulator = @Sendable (inout Accumulate, Element) -> Void

  private let current: LockedBox<Accumulate>
  private let accumulator: Accumulator

  /// Creates a scan that starts from `seed`.
  ///
  /// - Parameters:
  ///   - seed: The value before any element.
  ///   - accumulator: Folds one element into the running value.
  public init(seed: Accumulate, accumulator: @escaping Accumulator) {
    current = LockedBox(seed)
    self.accumulator = accumulator
  }

  /// The running value.
  public var value: Accumulate {
    current.withLock { $0 }
  }

  /// Folds `element` into the running value.
  ///
  /// - Parameter element: The next element.
  /// - Returns: The running value after it.
  @discardableResult
  public func accumulate(_ element: Element) -> Accumulate {
    current.withLock { value in
      accumulator(&value, element)
      return value
    }
  }
}

extension Scan where Accumulate == Int {
  /// A scan that counts its elements.
  ///
  /// - Returns: The scan, starting from 0.
  public static func counter() -> Scan {
    Scan(seed: 0) { count, _ in count += 1 }
  }
}

extension ReadableStore {
  /// Subscribes to the state as `sinkState` does, handing `receive` each
  /// change together with `scan`'s running value after it.
  ///
  /// ```swift
  /// store.sinkState(scan: .counter()) { changes, deliveries in log("#\(deliveries)") }
  /// ```
  ///
  /// - Parameters:
  ///   - scan: Folds every delivered change into a running value.
  ///   - dropsFirst: Skip the delivery of the current state.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each change and the running value.
  /// - Returns: The subscription's token.
  public func sinkState<Accumulate>(
    scan: Scan<Changes<State>, Accumulate>,
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<State>, Accumulate) -> Void
  ) -> StoreSubscription {
    sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation) { changes in
      receive(changes, scan.accumulate(changes))
    }
  }
}
