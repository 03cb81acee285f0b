/// Wakes a waiting test when something it may be waiting for happened.
///
/// Producers change their data first and then call `signal()`; the waiter
/// reads `generation` before it looks at the data, and `wait(since:until:)`
/// returns at once when a signal came in between, so no event is missed and
/// nothing polls. The deadline is one timer task per wait.
package final class Wakeup: Sendable {
  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Bool, Never>
    var timer: Task<Void, Never>?
  }

  private struct State {
    var generation: UInt64 = 0
    var nextWaiterID: UInt64 = 0
    var waiter: Waiter?
  }

  private let state = SharedLock(State())

  /// Increases with every signal.
  /// Creates a wakeup that no one waits for.
  package init() {}

  package var generation: UInt64 { state.withLock { $0.generation } }

  /// Records that something happened and wakes the waiter, if any.
  package func signal() {
    let waiter = state.withLock { state -> Waiter? in
      state.generation &+= 1
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.timer?.cancel()
    waiter?.continuation.resume(returning: true)
  }

  /// Suspends until a signal arrives after `generation` was read, or until
  /// `deadline`.
  ///
  /// - Returns: `true` when signalled, `false` when the deadline passed.
  package func wait(since generation: UInt64, until deadline: ContinuousClock.Instant) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let id = state.withLock { state -> UInt64? in
        guard state.generation == generation else { return nil }
        state.nextWaiterID += 1
        state.waiter = Waiter(id: state.nextWaiterID, continuation: continuation)
        return state.nextWaiterID
      }
      guard let id else {
        continuation.resume(returning: true)
        return
      }
      // A deadline, not a poll: the timer fires once, unless a signal
      // cancels it first.
      let timer = Task { [weak self] in
        try? await Task.sleep(until: deadline, clock: .continuous)
        self?.expire(id)
      }
      let orphaned = state.withLock { state -> Bool in
        guard state.waiter?.id == id else { return true }
        state.waiter?.timer = timer
        return false
      }
      if orphaned { timer.cancel() }
    }
  }

  private func expire(_ id: UInt64) {
    let waiter = state.withLock { state -> Waiter? in
      guard let waiter = state.waiter, waiter.id == id else { return nil }
      state.waiter = nil
      return waiter
    }
    waiter?.continuation.resume(returning: false)
  }
}
