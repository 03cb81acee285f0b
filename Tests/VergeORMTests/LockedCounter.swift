import Verge

/// A thread-safe counter for delivery counts in tests.
final class LockedCounter: Sendable {
  private let count = SharedLock(0)

  func increment() { count.withLock { $0 += 1 } }

  var value: Int { count.withLock { $0 } }
}
