#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif
import Synchronization

/// A value behind a lock; the one lock Verge's targets use.
///
/// The lock is a word taken with one compare-and-swap and released with one
/// exchange, both inlined into the caller, so an uncontended commit costs a
/// handful of instructions rather than a call into the C library's mutex.
/// A thread that finds the lock held spins briefly, then sleeps on one of a
/// few process-wide condition variables (`ParkingLot`) until the holder
/// wakes it.
///
/// Why not `Synchronization.Mutex`: its contended path acquires inside the
/// standard library, out of the Thread Sanitizer's sight, which then reports
/// races on every value it guards. Here every acquisition is this file's
/// own atomic operation (acquiring) and every release its own exchange
/// (releasing), which the sanitizer sees wherever the box is compiled.
///
/// Not fair, as a default pthread mutex is not; and a sleeping waiter does
/// not lend its priority to the holder (on Apple platforms
/// `os_unfair_lock` would), so a commit closure that runs long on a
/// low-priority thread delays a main-thread commit to the same store.
///
/// Internal, and inlinable so that the store's commit path specializes in
/// the caller's module; the sibling targets use it through `SharedLock`.
@usableFromInline
final class LockedBox<Value: Sendable> {
  /// `LockWord.free`, or who holds the lock (`LockWord.anonymous`, or the
  /// holder's thread for `lock(as:)`), with `LockWord.contended`
  /// set while a thread may be asleep waiting for it.
  @usableFromInline let word = Atomic<UInt>(LockWord.free)
  @usableFromInline @exclusivity(unchecked) var value: Value

  /// Creates a box holding `value`.
  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable @inline(__always)
  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock(as: LockWord.anonymous)
    defer { unlock() }
    return try body(&value)
  }

  /// Takes the lock for `holder` (a non-zero, even number), waiting while
  /// another holds it.
  ///
  /// - Parameter operation: For a holder that names the calling thread:
  ///   the operation reported (`Misuse.reentrantUse`) when that thread
  ///   already holds the lock, instead of waiting for itself forever.
  @inlinable @inline(__always)
  func lock(as holder: UInt, reportingReentrantUseAs operation: StaticString? = nil) {
    if !word.compareExchange(expected: LockWord.free, desired: holder, ordering: .acquiring).exchanged {
      LockWord.wait(for: word, as: holder, at: ObjectIdentifier(self), reportingReentrantUseAs: operation)
    }
  }

  /// Runs `body` with exclusive access when the lock is free right now, and
  /// returns `nil` without waiting when it is not (also when the calling
  /// thread holds it).
  @inlinable @inline(__always)
  func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    guard tryLock() else { return nil }
    defer { unlock() }
    return try body(&value)
  }

  /// Takes the lock if it is free right now; the caller then uses `value`
  /// and calls `unlock()`.
  @inlinable @inline(__always)
  func tryLock() -> Bool {
    word.compareExchange(expected: LockWord.free, desired: LockWord.anonymous, ordering: .acquiring).exchanged
  }

  /// Releases the lock, however it was taken.
  @inlinable @inline(__always)
  func unlock() {
    if word.exchange(LockWord.free, ordering: .releasing) & LockWord.contended != 0 {
      LockWord.wake(at: ObjectIdentifier(self))
    }
  }

  /// Who holds the lock right now: `holder` as given to `lock(as:)`, or
  /// `nil` when it is free (a hint, unless the caller is the holder).
  @inlinable
  var holder: UInt? {
    let word = word.load(ordering: .relaxed)
    return word == LockWord.free ? nil : word & ~LockWord.contended
  }
}

/// The values of a `LockedBox`'s word, and its slow paths.
@usableFromInline
enum LockWord {
  @usableFromInline static let free: UInt = 0
  /// Set while a thread may be asleep waiting for the lock.
  @usableFromInline static let contended: UInt = 1
  /// The holder of a lock taken without naming one. A thread identity
  /// (`pthread_self()`, the address of the thread's descriptor) is never 2.
  @usableFromInline static let anonymous: UInt = 2

  /// Takes `word` for `holder` after a failed first attempt: spins a
  /// little (the holder is usually about to release), then sleeps until
  /// woken.
  @usableFromInline
  static func wait(
    for word: borrowing Atomic<UInt>, as holder: UInt, at lock: ObjectIdentifier,
    reportingReentrantUseAs operation: StaticString?
  ) {
    if let operation, word.load(ordering: .relaxed) & ~contended == holder {
      Misuse.reentrantUse(operation)
    }
    for _ in 0..<64 {
      if word.load(ordering: .relaxed) == free,
        word.compareExchange(expected: free, desired: holder, ordering: .acquiring).exchanged
      {
        return
      }
      // Let the holder run (on a busy machine it may be descheduled).
      sched_yield()
    }
    let (mutex, condition) = ParkingLot.slot(for: lock)
    pthread_mutex_lock(mutex)
    while true {
      let current = word.load(ordering: .relaxed)
      if current == free {
        // Taken marked contended: other threads may be asleep on it.
        if word.compareExchange(expected: free, desired: holder | contended, ordering: .acquiring).exchanged {
          break
        }
        continue
      }
      if current & contended == 0,
        !word.compareExchange(expected: current, desired: current | contended, ordering: .relaxed).exchanged
      {
        continue
      }
      // Marked contended, so the releasing thread comes to wake us. Its
      // wake takes this slot's mutex, which we hold from the mark until the
      // wait releases it: the wake cannot fall between the two.
      pthread_cond_wait(condition, mutex)
    }
    pthread_mutex_unlock(mutex)
  }

  /// Wakes the threads asleep on `lock`'s slot (they re-check their word).
  @usableFromInline
  static func wake(at lock: ObjectIdentifier) {
    let (mutex, condition) = ParkingLot.slot(for: lock)
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }
}

/// Where threads sleep while a `LockedBox` they want is held: a fixed set of
/// mutex and condition-variable pairs, shared by all boxes (a box picks one
/// by its address), so a box costs one word instead of a mutex of its own.
enum ParkingLot {
  static let count = 64

  /// The slots' mutexes and condition variables, made once, never freed:
  /// every box may need a slot while the process lives.
  /// `nonisolated(unsafe)`: the pointers never change after they are made,
  /// and the memory behind them is only used through the pthread
  /// functions, which synchronize it.
  nonisolated(unsafe) static let slots: (
    mutexes: UnsafeMutablePointer<pthread_mutex_t>, conditions: UnsafeMutablePointer<pthread_cond_t>
  ) = {
    let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
    let conditions = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: count)
    for index in 0..<count {
      (mutexes + index).initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutexes + index, nil)
      (conditions + index).initialize(to: pthread_cond_t())
      pthread_cond_init(conditions + index, nil)
    }
    return (mutexes, conditions)
  }()

  /// The mutex and condition variable that waiters for `lock` use.
  static func slot(
    for lock: ObjectIdentifier
  ) -> (mutex: UnsafeMutablePointer<pthread_mutex_t>, condition: UnsafeMutablePointer<pthread_cond_t>) {
    let index = Int((UInt(bitPattern: lock) >> 4) % UInt(count))
    return (slots.mutexes + index, slots.conditions + index)
  }
}

/// The lock that Verge's sibling targets (VergeNeue, VergeORM, VergeTesting)
/// and tests use: a `LockedBox`, visible to this package only.
package struct SharedLock<Value: Sendable>: Sendable {
  private let box: LockedBox<Value>

  /// Creates a lock guarding `value`.
  package init(_ value: Value) {
    box = LockedBox(value)
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try box.withLock(body)
  }

  /// Runs `body` when the lock is free now; `nil` without waiting otherwise.
  package func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try box.withLockIfAvailable(body)
  }
}
