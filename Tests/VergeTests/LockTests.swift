import Dispatch
import Foundation
import Verge
import XCTest

/// The one lock every Verge target uses (`SharedLock` over `LockedBox`): a
/// word taken with a compare-and-swap, and a shared parking lot for threads
/// that find it held. These tests drive its slow paths on purpose.
final class LockTests: XCTestCase {
  func testContendedIncrementsAreNeitherLostNorDoubled() {
    let lock = SharedLock(0)
    let threads = 4
    let increments = 20_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<increments {
        lock.withLock { $0 += 1 }
      }
    }
    XCTAssertEqual(lock.withLock { $0 }, threads * increments)
  }

  func testTryingALockHeldByAnotherThreadReturnsNilAndRunsNothing() {
    let lock = SharedLock(0)
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = Thread {
      lock.withLock { _ in
        held.signal()
        release.wait()
      }
    }
    holder.start()
    held.wait()
    XCTAssertNil(lock.withLockIfAvailable { $0 += 1 })
    release.signal()
    // Once released it is taken at once.
    var taken: Int?
    for _ in 0..<10_000 where taken == nil {
      taken = lock.withLockIfAvailable { value -> Int in
        value += 1
        return value
      }
      if taken == nil { usleep(100) }
    }
    XCTAssertEqual(taken, 1)
  }

  /// Waiters that gave up spinning sleep on one of a fixed set of parking
  /// slots, shared between locks; a release must wake its own waiters even
  /// when other locks' waiters sleep on the same slot. More locks than
  /// slots, each held long enough for its waiter to go to sleep.
  func testEverySleepingWaiterIsWokenWhenItsLockIsReleased() {
    let lockCount = 150
    let locks = (0..<lockCount).map { _ in SharedLock<[String]>([]) }
    let allHeld = DispatchGroup()
    let finished = DispatchGroup()
    let release = DispatchSemaphore(value: 0)
    for lock in locks {
      allHeld.enter()
      finished.enter()
      Thread {
        lock.withLock { order in
          allHeld.leave()
          release.wait()
          order.append("holder")
        }
        finished.leave()
      }.start()
    }
    allHeld.wait()
    for lock in locks {
      finished.enter()
      Thread {
        lock.withLock { $0.append("waiter") }
        finished.leave()
      }.start()
    }
    // Long enough for the waiters to stop spinning and sleep.
    usleep(50_000)
    for _ in locks { release.signal() }
    XCTAssertEqual(finished.wait(timeout: .now() + 20), .success, "a waiter was never woken")
    for lock in locks {
      XCTAssertEqual(lock.withLock { $0 }, ["holder", "waiter"])
    }
  }

  func testCommitsFromManyThreadsCountEveryChange() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    store.sinkState(dropsFirst: true) { changes in received.append(changes.count) }
      .storeWhileSourceActive()
    let threads = 4
    let commits = 2_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<commits {
        store.commit { $0.count += 1 }
      }
    }
    XCTAssertEqual(store.state.count, threads * commits)
    XCTAssertEqual(store.version, UInt64(threads * commits))
    XCTAssertEqual(received.values, Array(1...(threads * commits)))
  }

  /// A subscription cancelled from inside a commit closure (where the
  /// store's lock is held by the cancelling thread) neither deadlocks nor
  /// receives that commit, and the store lets its handler go.
  func testCancellingInsideACommitClosureDropsTheSubscriber() {
    final class Witness: Sendable {}
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    weak var weakWitness: Witness?
    var token: StoreSubscription?
    do {
      let witness = Witness()
      weakWitness = witness
      token = store.sinkState(dropsFirst: true) { changes in
        withExtendedLifetime(witness) { received.append(changes.count) }
      }
    }
    store.commit { $0.count = 1 }
    store.commit { state in
      token?.cancel()
      state.count = 2
    }
    store.commit { $0.count = 3 }
    XCTAssertEqual(received.values, [1])
    XCTAssertNil(weakWitness, "the store still holds the cancelled handler")
    XCTAssertEqual(token?.isCancelled, true)
  }
}
