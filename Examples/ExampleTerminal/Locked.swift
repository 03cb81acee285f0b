import Synchronization

/// A value shared between threads, behind a mutex: what the examples use
/// for state that lives outside a store (a log, a fake server, undo
/// history). A class, so that closures and several owners can share it.
public final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// Creates a lock guarding `value`.
  public init(_ value: Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the value.
  public func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
    try mutex.withLock(body)
  }
}
