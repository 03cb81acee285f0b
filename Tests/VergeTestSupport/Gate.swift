import Verge

/// A one-shot gate for tests: `wait()` suspends until `open()` is called
/// (before or after). Tests wait on it instead of sleeping.
public final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = SharedLock(State())

  /// Creates a closed gate.
  public init() {}

  /// Opens the gate: every waiter, present and future, goes on.
  public func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until the gate is open.
  public func wait() async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Bool in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
