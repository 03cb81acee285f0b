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
/// Shared with the sibling targets (VergeNeue, VergeORM, VergeTesting) as
/// SPI; it is not part of the public API.
@_spi(Internal)
public final class LockedBox<Value: Sendable> {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// Creates a box holding `value`.
  public init(_ value: Value) {
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
  @inline(__always)
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }

  /// Runs `body` with exclusive access when the lock is free right now, and
  /// returns `nil` without waiting when it is not (also when the calling
  /// thread holds it).
  @inline(__always)
  public func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
