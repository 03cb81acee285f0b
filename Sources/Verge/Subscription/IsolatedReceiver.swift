import Dispatch
import Foundation
import Synchronization

/// A subscriber's handler as the caller's isolation requires it to be called.
///
/// `sinkState`, `sinkActivity` and a derived value's `sinkState` take the
/// caller's isolation (`#isolation`), so that a handler written in main-actor
/// code may touch main-actor state directly, as a view controller's does:
///
/// - No isolation (nonisolated code): the handler is called where the
///   subscription's `DeliveryQueue` says, one delivery at a time.
/// - The main actor: the handler runs on the main actor — at once when the
///   change is delivered on the main actor (the main thread, or the thread
///   that runs the main queue) and nothing is waiting, otherwise on the main
///   queue — always in delivery order.
/// - Another actor: the handler runs on that actor, in delivery order.
@usableFromInline
final class IsolatedReceiver<Payload: Sendable> {
  private struct Mailbox: Sendable {
    var waiting: [Payload] = []
    /// The subscription's token, once made: a delivery still waiting when
    /// it is cancelled (or released) is dropped, never delivered.
    weak var token: StoreSubscription?
    /// Whether `token` was set. A drain may run before it is (the first
    /// delivery of a main-isolated subscription made off the main actor):
    /// then the subscription is live, not released.
    var hasToken = false
  }

  private let receive: (Payload) -> Void
  private let actor: any Actor
  private let isMainActor: Bool
  private let mailbox = LockedBox(Mailbox())
  /// Whether a drain is scheduled or running: set with the first waiting
  /// delivery, cleared by the drain that finds nothing left. Written only
  /// while `mailbox` is locked; read without the lock by `mayCallInPlace`.
  private let isScheduled = Atomic<Bool>(false)

  private init(_ receive: @escaping (Payload) -> Void, actor: any Actor) {
    self.receive = receive
    self.actor = actor
    isMainActor = actor === MainActor.shared
  }

  /// Subscribes `receive` through `subscribe`, handing the store a function
  /// it may call from any thread, serially: `receive` itself when there is
  /// no isolation to respect, otherwise a hop to the isolation.
  ///
  /// - Parameters:
  ///   - receive: The subscriber's handler, isolated to `isolation`.
  ///   - isolation: The caller's isolation, `#isolation` at the call site.
  ///   - subscribe: Registers the function the store calls.
  /// - Returns: The subscription's token.
  @usableFromInline
  static func subscribe(
    _ receive: @escaping (Payload) -> Void,
    isolation: (any Actor)?,
    _ subscribe: (@escaping @Sendable (Payload) -> Void) -> StoreSubscription
  ) -> StoreSubscription {
    guard let isolation else {
      // Nonisolated code: the handler is called as a `@Sendable` one was
      // before subscriptions took the caller's isolation — from the
      // delivering thread or the chosen queue, one delivery at a time, never
      // concurrently with itself. (A closure that captures it costs one call
      // per delivery; `unsafeBitCast` would cost two re-abstraction thunks,
      // as the function passes through its generic parameters.)
      nonisolated(unsafe) let receive = receive
      return subscribe { receive($0) }
    }
    let receiver = IsolatedReceiver(receive, actor: isolation)
    let token = subscribe { receiver.deliver($0) }
    // A hop may already have drained (when the caller is not on the
    // isolation); until now, the subscription counted as live.
    receiver.mailbox.withLock {
      $0.token = token
      $0.hasToken = true
    }
    return token
  }

  /// Whether this delivery may call the handler right here: on the main
  /// queue, which runs the main actor, with no earlier delivery waiting or
  /// being drained. (`waiting` is never filled while `isScheduled` is
  /// false, so that flag alone tells; testing `waiting.isEmpty` too looked
  /// up the array's type metadata and conformance on every delivery, about
  /// 500 instructions.) The store calls `deliver` serially and a drain runs
  /// on the main queue too, so nothing changes the flag between this read
  /// and the call.
  private var mayCallInPlace: Bool {
    isMainActor && ThreadIdentity.isOnMainQueue && !isScheduled.load(ordering: .acquiring)
  }

  private func deliver(_ payload: Payload) {
    if mayCallInPlace {
      // On the main queue the main actor is the running isolation, as
      // `MainActor.assumeIsolated` would check again (about 220
      // instructions a delivery, twice over with the handler's own check).
      receive(payload)
      return
    }
    let schedule = mailbox.withLock { mailbox -> Bool in
      mailbox.waiting.append(payload)
      return !isScheduled.exchange(true, ordering: .acquiringAndReleasing)
    }
    guard schedule else { return }
    let ticket = PendingDeliveries.begin()
    if isMainActor {
      DispatchQueue.main.async {
        MainActor.assumeIsolated { self.drain() }
        PendingDeliveries.finish(ticket)
      }
    } else {
      Task {
        await self.drain(on: self.actor)
        PendingDeliveries.finish(ticket)
      }
    }
  }

  private func drain(on actor: isolated any Actor) {
    drain()
  }

  /// Calls the handler with everything waiting, in order, until nothing is,
  /// or until the subscription ends (what still waits is then dropped).
  /// Runs on the handler's actor.
  private func drain() {
    while true {
      let (batch, token, hasToken) = mailbox.withLock { mailbox -> ([Payload], StoreSubscription?, Bool) in
        defer { mailbox.waiting = [] }
        if mailbox.waiting.isEmpty { isScheduled.store(false, ordering: .releasing) }
        return (mailbox.waiting, mailbox.token, mailbox.hasToken)
      }
      if batch.isEmpty { return }
      for payload in batch {
        if hasToken {
          guard let token, !token.isCancelled else { continue }
        }
        receive(payload)
      }
    }
  }
}

/// Marks the main queue, so that code running on it knows so on any
/// thread: `DispatchQueue.getSpecific(key:)` answers for the queue that runs
/// the calling code. Set once, on first use.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

extension ThreadIdentity {
  /// Whether the calling code runs on the main queue, and so on the main
  /// actor: on the main thread, or on the thread that runs the main queue
  /// for now. On Linux, once `dispatchMain()` has run (as it has in a
  /// program whose `main` is async, and so in every Swift Testing run), the
  /// main queue and the main actor with it run on other threads, not on
  /// the main thread.
  static var isOnMainQueue: Bool {
    isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
  }

  /// Whether the calling thread is the main thread: Foundation's answer,
  /// asked once per thread and kept in its marks. On Linux, Foundation asks
  /// the kernel every time (a `gettid` system call), which a main-actor
  /// subscriber's every delivery would pay.
  static var isMainThread: Bool {
    let marks = marks(key: marksKey)
    if marks.pointee.mainThreadAnswer == 0 {
      marks.pointee.mainThreadAnswer = Thread.isMainThread ? 1 : 2
    }
    return marks.pointee.mainThreadAnswer == 1
  }
}
