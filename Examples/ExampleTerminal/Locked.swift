import Foundation

/// A value shared between threads, behind a lock: what the examples use
/// for state that lives outside a store (a log, a fake server, undo
/// history). A class, so that closures and several owners can share it.
///
/// An `NSLock` rather than `Synchronization.Mutex`: the Thread Sanitizer
/// cannot see `Mutex`'s contended acquisition and reports races on the value
/// it guards; it sees `NSLock`'s, so the examples run clean under it.
public final class Locked<Value: Sendable>: @unchecked Sendable {
  // `@unchecked`: `value` is read and written only inside `withLock`, while
  // `lock` is held, so no two threads touch it at once.
  private let lock = NSLock()
  private var value: Value

  /// Creates a lock guarding `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
