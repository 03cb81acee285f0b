import Verge
import Synchronization

/// Counts work in flight (actions, effects) and wakes waiters when it drops
/// to zero; no polling.
///
/// The count is an atomic, so `begin` and `end` take no lock unless someone
/// waits: a waiter publishes itself (`hasWaiters`) and then re-reads the
/// count, and `end` lowers the count and then reads `hasWaiters`. Both are
/// sequentially consistent, so at least one side sees the other, and the
/// waiters are taken under the lock by whichever side does.
@usableFromInline
final class InFlight: Sendable {
  @usableFromInline let active = Atomic<Int>(0)
  @usableFromInline let hasWaiters = Atomic<Bool>(false)
  private let waiters = SharedLock<[CheckedContinuation<Void, Never>]>([])

  var count: Int { active.load(ordering: .sequentiallyConsistent) }

  @inlinable
  func begin() {
    active.add(1, ordering: .sequentiallyConsistent)
  }

  @inlinable
  func end() {
    let remaining = active.subtract(1, ordering: .sequentiallyConsistent).newValue
    if remaining == 0 && hasWaiters.load(ordering: .sequentiallyConsistent) {
      wakeWaitersIfIdle()
    }
  }

  @usableFromInline
  func wakeWaitersIfIdle() {
    let woken = waiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
      guard active.load(ordering: .sequentiallyConsistent) == 0 else { return [] }
      hasWaiters.store(false, ordering: .sequentiallyConsistent)
      defer { waiters = [] }
      return waiters
    }
    for waiter in woken { waiter.resume() }
  }

  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      waiters.withLock { waiters in
        waiters.append(continuation)
        hasWaiters.store(true, ordering: .sequentiallyConsistent)
      }
      wakeWaitersIfIdle()
    }
  }
}
