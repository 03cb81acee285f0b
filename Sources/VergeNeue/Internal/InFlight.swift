@_spi(Internal) import Verge

/// Counts work in flight (actions, effects) and wakes waiters when it drops
/// to zero; no polling.
final class InFlight: Sendable {
  private struct State {
    var count = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = SharedLock(State())

  var count: Int { state.withLock { $0.count } }

  func begin() {
    state.withLock { $0.count += 1 }
  }

  func end() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
