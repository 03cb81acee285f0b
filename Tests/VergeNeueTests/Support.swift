@_spi(Internal) import Verge

/// A one-shot gate: `wait()` suspends until `open()` is called (before or after).
final class Gate: Sendable {
  private struct State {
    var open = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = SharedLock(State())

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Bool in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }
}

/// A thread-safe list, for collecting what callbacks saw.
final class Collected<Element: Sendable>: Sendable {
  private let items = SharedLock<[Element]>([])

  func append(_ element: Element) {
    items.withLock { $0.append(element) }
  }

  var all: [Element] { items.withLock { $0 } }
}

struct TestFailure: Error, Equatable {
  let message: String
}
