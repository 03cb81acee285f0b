import Dispatch
import Synchronization

/// One registered subscriber of a `StateCore`.
@usableFromInline
final class CoreSubscriber<Value: Sendable, Activity: Sendable>: Sendable {
  @usableFromInline
  enum Receiver: Sendable {
    case changes(@Sendable (Changes<Value>) -> Void)
    case values(@Sendable (Value) -> Void)
    /// Values with their sequence number, for the derived-value hub; the
    /// value is read where the delivery holds it, for the call's duration.
    case sequencedValues(@Sendable (UInt64, UnsafePointer<Value>) -> Void)
    case activity(@Sendable (Activity) -> Void)
  }

  // The receiver, one stored property per kind: the delivery loop reads
  // these from a subscriber it holds unretained, which lets it call the
  // closure without copying it out of an enum payload. Exactly one is set.
  @usableFromInline let changesReceiver: (@Sendable (Changes<Value>) -> Void)?
  @usableFromInline let valuesReceiver: (@Sendable (Value) -> Void)?
  @usableFromInline let sequencedReceiver: (@Sendable (UInt64, UnsafePointer<Value>) -> Void)?
  @usableFromInline let activityReceiver: (@Sendable (Activity) -> Void)?
  @usableFromInline let isSynchronous: Bool
  @usableFromInline let queue: DeliveryQueue
  /// Events with a sequence number above this happened after registration.
  @usableFromInline let startSequence: UInt64
  private let onTerminate: (@Sendable () -> Void)?
  @usableFromInline let cancelled = Atomic<Bool>(false)

  init(
    _ receiver: Receiver, queue: DeliveryQueue, startSequence: UInt64,
    onTerminate: (@Sendable () -> Void)?
  ) {
    var changes: (@Sendable (Changes<Value>) -> Void)?
    var values: (@Sendable (Value) -> Void)?
    var sequenced: (@Sendable (UInt64, UnsafePointer<Value>) -> Void)?
    var activity: (@Sendable (Activity) -> Void)?
    switch receiver {
    case .changes(let receive): changes = receive
    case .values(let receive): values = receive
    case .sequencedValues(let receive): sequenced = receive
    case .activity(let receive): activity = receive
    }
    changesReceiver = changes
    valuesReceiver = values
    sequencedReceiver = sequenced
    activityReceiver = activity
    if case .committingThread = queue { isSynchronous = true } else { isSynchronous = false }
    self.queue = queue
    self.startSequence = startSequence
    self.onTerminate = onTerminate
  }

  var receivesActivities: Bool { activityReceiver != nil }

  /// Hands a queued change to whichever receiver this subscriber has,
  /// reading the states in the box where they are: a subscriber of a large
  /// state gets no copy of it on the delivering thread's stack.
  @inlinable
  func receive(_ sequence: UInt64, _ box: ChangeBox<Value>) {
    if isSynchronous || sequencedReceiver != nil {
      guard !isCancelled else { return }
      if changesReceiver != nil {
        changesReceiver?(box.changes)
      } else if sequencedReceiver != nil {
        box.withCurrent { sequencedReceiver?(sequence, $0) }
      } else {
        valuesReceiver?(box.changes.current)
      }
      return
    }
    guard activityReceiver == nil else { return }
    let deliver: @Sendable () -> Void = { [self] in
      guard !isCancelled else { return }
      if changesReceiver != nil {
        changesReceiver?(box.changes)
      } else {
        valuesReceiver?(box.changes.current)
      }
    }
    switch queue {
    case .committingThread:
      deliver()
    case .main:
      // A ticket, as `perform` takes one: `waitUntilAllEventConsumed()`
      // waits for this block too.
      let ticket = PendingDeliveries.begin()
      DispatchQueue.main.async {
        deliver()
        PendingDeliveries.finish(ticket)
      }
    case .dispatch(let queue):
      let ticket = PendingDeliveries.begin()
      queue.async {
        deliver()
        PendingDeliveries.finish(ticket)
      }
    }
  }

  /// Hands a change that its committing thread delivers directly
  /// (`StateCore.deliverDirect`) to a subscriber other than the common one
  /// (`Changes` on the committing thread, which that loop calls itself).
  @inlinable
  func receiveOther(_ sequence: UInt64, _ changes: Changes<Value>) {
    if changesReceiver != nil {
      if isSynchronous {
        // Called through the optional in place: binding it would copy
        // (retain) the closure for every subscriber.
        if !isCancelled { changesReceiver?(changes) }
      } else if let receive = changesReceiver {
        perform(receive, changes)
      }
    } else if sequencedReceiver != nil {
      if !isCancelled { withUnsafePointer(to: changes.current) { sequencedReceiver?(sequence, $0) } }
    } else if valuesReceiver != nil {
      if isSynchronous {
        if !isCancelled { valuesReceiver?(changes.current) }
      } else if let receive = valuesReceiver {
        perform(receive, changes.current)
      }
    }
  }

  @inlinable
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  func markCancelled() {
    cancelled.store(true, ordering: .releasing)
  }

  /// The source went away: no more deliveries, and tell the subscriber.
  func terminate() {
    let wasCancelled = cancelled.exchange(true, ordering: .acquiringAndReleasing)
    if !wasCancelled { onTerminate?() }
  }

  /// Calls `receive` with `payload` where this subscriber asked to be called.
  /// The synchronous path allocates nothing.
  @inlinable @inline(__always)
  func perform<Payload: Sendable>(_ receive: @escaping @Sendable (Payload) -> Void, _ payload: Payload) {
    if isSynchronous {
      if !isCancelled { receive(payload) }
      return
    }
    switch queue {
    case .committingThread:
      if !isCancelled { receive(payload) }
    case .main:
      let ticket = PendingDeliveries.begin()
      DispatchQueue.main.async {
        if !self.isCancelled { receive(payload) }
        PendingDeliveries.finish(ticket)
      }
    case .dispatch(let queue):
      let ticket = PendingDeliveries.begin()
      queue.async {
        if !self.isCancelled { receive(payload) }
        PendingDeliveries.finish(ticket)
      }
    }
  }
}
