import Verge

/// Long-running effects for tests of cancellation: a task parks under a
/// name until it is cancelled. The test waits until the tasks it started
/// have parked, and reads which were cancelled.
///
/// A cancellation is recorded on the cancelling thread, while
/// `Task.cancel()` runs (a cancellation handler runs there), so once an
/// action that cancels has been reduced, `cancelled` already says what it
/// cancelled: no waiting is needed to see that a task was *not* cancelled.
public final class ParkedTasks: Sendable {
  private struct State: Sendable {
    var nextToken = 0
    var parkedCount = 0
    var parked: [Int: (name: String, continuation: CheckedContinuation<Void, Never>)] = [:]
    /// Tokens cancelled before their task parked.
    var cancelledEarly: Set<Int> = []
    var cancelled: [String] = []
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The waiters `parkedCount` now satisfies, taken out.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let ready = waiters.filter { $0.count <= parkedCount }.map(\.continuation)
      waiters.removeAll { $0.count <= parkedCount }
      return ready
    }
  }

  // Verge's own lock, not `Synchronization.Mutex`: the Thread Sanitizer
  // does not see the latter's contended acquisition and reports a race.
  private let state = SharedLock(State())

  /// Creates an empty record.
  public init() {}

  /// Suspends the calling task until it is cancelled, recorded under
  /// `name` as parked and then as cancelled.
  public func park(_ name: String) async {
    let token = state.withLock { state in
      state.nextToken += 1
      return state.nextToken
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let (early, waiters) = state.withLock { state in
          state.parkedCount += 1
          let early = state.cancelledEarly.remove(token) != nil
          if !early { state.parked[token] = (name, continuation) }
          return (early, state.satisfiedWaiters())
        }
        for waiter in waiters { waiter.resume() }
        if early { continuation.resume() }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard let (name, continuation) = state.parked.removeValue(forKey: token) else {
          state.cancelledEarly.insert(token)
          state.cancelled.append("(before parking)")
          return nil
        }
        state.cancelled.append(name)
        return continuation
      }
      continuation?.resume()
    }
  }

  /// Suspends until `count` tasks in all have parked.
  public func waitUntilParked(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.parkedCount >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// The names of the tasks parked now (not cancelled), sorted.
  public var parked: [String] {
    state.withLock { $0.parked.values.map(\.name).sorted() }
  }

  /// The names of the cancelled tasks, in the order they were cancelled.
  public var cancelled: [String] {
    state.withLock { $0.cancelled }
  }
}
