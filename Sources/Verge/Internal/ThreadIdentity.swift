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
  /// A number that identifies the calling thread while it lives: the
  /// address of its descriptor, so non-zero and aligned (a `LockedBox` word
  /// holds it beside a flag in the lowest bit).
  @inlinable @inline(__always)
  static var current: UInt {
    #if canImport(Darwin)
    let identity = UInt(bitPattern: pthread_self())
    #else
    let identity = UInt(pthread_self())
    #endif
    assert(identity & 3 == 0 && identity != 0, "Verge: unexpected thread identity \(identity)")
    return identity
  }

  /// The key of each thread's delivery depth (see `depth(key:)`); its
  /// destructor frees the thread's counter when the thread ends.
  @usableFromInline static let depthKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { counter in
      #if canImport(Darwin)
      counter.assumingMemoryBound(to: Int.self).deallocate()
      #else
      counter?.assumingMemoryBound(to: Int.self).deallocate()
      #endif
    }
    precondition(status == 0, "Verge: pthread_key_create failed (\(status))")
    return key
  }()

  /// The calling thread's delivery depth: how many subscriber deliveries
  /// (of any store or derived value) it is inside of right now.
  ///
  /// A thread that is delivering never blocks waiting for another thread's
  /// delivery: that is what keeps cross-store re-entrancy free of deadlocks.
  ///
  /// The counter is plain memory of the calling thread's own, found with
  /// one `pthread_getspecific` through a key read once by the caller
  /// (`depthKey` is a lazily made global, whose every read checks that it
  /// was made); marking and unmarking a delivery are then a store each.
  @inlinable @inline(__always)
  static func depth(key: pthread_key_t) -> UnsafeMutablePointer<Int> {
    if let counter = pthread_getspecific(key) {
      return counter.assumingMemoryBound(to: Int.self)
    }
    return makeDepth(key: key)
  }

  /// The calling thread's first use of its depth counter.
  @usableFromInline
  static func makeDepth(key: pthread_key_t) -> UnsafeMutablePointer<Int> {
    let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    counter.initialize(to: 0)
    let status = pthread_setspecific(key, counter)
    precondition(status == 0, "Verge: pthread_setspecific failed (\(status))")
    return counter
  }

  /// Runs `body` as one more delivery of the calling thread.
  @inlinable @inline(__always)
  static func withDelivery<R>(depth: UnsafeMutablePointer<Int>, _ body: () throws -> R) rethrows -> R {
    depth.pointee += 1
    defer { depth.pointee -= 1 }
    return try body()
  }
}
