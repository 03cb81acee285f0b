import Synchronization

/// A value shared between threads, behind a mutex: what workloads keep
/// outside the store they measure (a held state, a count of calls, the
/// failures a check found). A class, so that closures share it.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
    try mutex.withLock(body)
  }
}
