#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

/// A value behind a POSIX mutex; the one lock Verge's targets use.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path is invisible
/// to the Thread Sanitizer, which then reports races on every value it
/// guards, and it measured about 7× slower than this box uncontended on the
/// project's machines. `pthread_mutex_t` is understood by the sanitizer and
/// exists on every platform Swift runs on.
///
/// Internal, and inlinable so that the store's commit path specializes in
/// the caller's module; the sibling targets use it through `SharedLock`.
@usableFromInline
final class LockedBox<Value: Sendable> {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline @exclusivity(unchecked) var value: Value

  /// Creates a box holding `value`.
  @usableFromInline
  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "Verge: pthread_mutex_init failed (\(status))")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable @inline(__always)
  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }

  /// Runs `body` with exclusive access when the lock is free right now, and
  /// returns `nil` without waiting when it is not (also when the calling
  /// thread holds it).
  @inlinable @inline(__always)
  func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

/// The lock that Verge's sibling targets (VergeNeue, VergeORM, VergeTesting)
/// and tests use: a `LockedBox` behind SPI. Not part of the public API.
@_spi(Internal)
public struct SharedLock<Value: Sendable>: Sendable {
  private let box: LockedBox<Value>

  /// Creates a lock guarding `value`.
  public init(_ value: Value) {
    box = LockedBox(value)
  }

  /// Runs `body` with exclusive access to the value.
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try box.withLock(body)
  }

  /// Runs `body` when the lock is free now; `nil` without waiting otherwise.
  public func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try box.withLockIfAvailable(body)
  }
}
