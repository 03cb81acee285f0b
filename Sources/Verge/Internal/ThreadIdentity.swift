#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

/// Facts about the calling thread that the delivery engine needs and that
/// Swift's own concurrency primitives do not expose.
@usableFromInline
enum ThreadIdentity {
  /// A non-zero number that identifies the calling thread while it lives.
  @inlinable @inline(__always)
  static var current: UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
  }

  @usableFromInline static let depthKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "Verge: pthread_key_create failed (\(status))")
    return key
  }()

  /// How many subscriber deliveries (of any store or derived value) the
  /// calling thread is inside of right now.
  ///
  /// A thread that is delivering never blocks waiting for another thread's
  /// delivery: that is what keeps cross-store re-entrancy free of deadlocks.
  @inlinable @inline(__always)
  static var deliveryDepth: Int {
    Int(bitPattern: pthread_getspecific(depthKey))
  }

  /// `deliveryDepth` through a key read once by the caller: `depthKey` is
  /// a lazily made global, whose every read checks that it was made.
  @inlinable @inline(__always)
  static func deliveryDepth(key: pthread_key_t) -> Int {
    Int(bitPattern: pthread_getspecific(key))
  }

  /// Runs `body` as a delivery of a thread that was delivering nothing
  /// (`deliveryDepth(key:)` just read 0), through a key read once by the
  /// caller.
  @inlinable @inline(__always)
  static func withOutermostDelivery<R>(key: pthread_key_t, _ body: () throws -> R) rethrows -> R {
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(key, nil) }
    return try body()
  }

  @inlinable
  static func withDelivery<R>(_ body: () throws -> R) rethrows -> R {
    let depth = deliveryDepth
    pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: depth + 1))
    defer { pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: depth)) }
    return try body()
  }
}
