import Synchronization
import Verge

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The state one dispatch through a specialized pipeline last read or
/// wrote, with the store's change count it belongs to.
///
/// Each middleware step is handed the state before it and returns the state
/// after it; when nothing changed since the previous step looked, the cache
/// answers instead of another trip through the store's lock.
///
/// Only the thread running the dispatch synchronously (between `begin()`
/// and `end()`) uses it; a step used on another thread, or kept and called
/// later, reads the store. `end()` drops a state that holds references, so
/// that a finished dispatch keeps no copy of it alive (a copy held would
/// make the next commit copy the collections it touches). The next owner
/// sees what the last one wrote: ownership passes with the engine's
/// `draining` flag, which orders its holders.
@usableFromInline
final class StepStateCache<State: Sendable> {
  /// The thread running the dispatch synchronously; 0 outside it.
  @usableFromInline let owner = Atomic<UInt>(0)
  @usableFromInline @exclusivity(unchecked) var state: State?
  @usableFromInline @exclusivity(unchecked) var count: UInt64 = 0
  /// The store's change count, read without the lock.
  @usableFromInline let counter: _ChangeCounter
  /// Reads the store's state and change count together, under its lock.
  @usableFromInline let readCounted: @Sendable () -> (State, UInt64)

  @inlinable
  init(counter: _ChangeCounter, readCounted: @escaping @Sendable () -> (State, UInt64)) {
    self.counter = counter
    self.readCounted = readCounted
  }

  /// Identifies the calling thread.
  @inlinable
  static var currentThread: UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
  }

  /// Whether the caller is the thread running the dispatch synchronously.
  @inlinable
  var isOwned: Bool {
    owner.load(ordering: .relaxed) == Self.currentThread
  }

  /// Starts a synchronous dispatch on the calling thread.
  @inlinable
  func begin() {
    owner.store(Self.currentThread, ordering: .relaxed)
  }

  /// Ends the synchronous dispatch and drops the state, unless it is plain
  /// data: a copy of that shares no storage with the store's state, so it
  /// may stay for the next dispatch, which then reads no lock at all while
  /// nothing else changed the store.
  @inlinable
  func end() {
    owner.store(0, ordering: .relaxed)
    if !_isPOD(State.self) { state = nil }
  }

  /// The store's current state: the cached one when the store has not
  /// changed since it was cached, otherwise read (and, by the owner,
  /// cached).
  ///
  /// - Parameter owned: `isOwned`, which the caller asks once for the
  ///   reads it makes on one thread.
  @inlinable @inline(__always)
  func read(owned: Bool) -> State {
    if owned, let state, counter._current == count { return state }
    let (state, count) = readCounted()
    if owned {
      self.state = state
      self.count = count
    }
    return state
  }

  /// Records a state the dispatch wrote, with the change count after its
  /// commit; ignored off the owning thread.
  @inlinable
  func remember(_ state: State, count: UInt64, owned: Bool) {
    guard owned else { return }
    self.state = state
    self.count = count
  }
}
