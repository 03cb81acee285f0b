import ExampleTerminal
import Verge

/// A fake delay for the examples: `delay()` suspends until `open()` is
/// called (before or after), and ends with `CancellationError` at once when
/// its task is cancelled, as `Task.sleep` does. No test sleeps for real.
final class DelayGate: Sendable {
  private struct State {
    var isOpen = false
    var nextID: UInt64 = 0
    var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    var cancelledEarly: Set<UInt64> = []
    var started = 0
  }

  private let state = Locked(State())

  /// How many delays have started so far.
  var started: Int { state.withLock { $0.started } }

  /// Lets every waiting and future delay end.
  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// The delay to inject.
  func delay() async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      state.started += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome = state.withLock { state -> Bool? in
          if state.cancelledEarly.remove(id) != nil { return false }
          if state.isOpen { return true }
          state.waiters[id] = continuation
          return nil
        }
        switch outcome {
        case true?: continuation.resume()
        case false?: continuation.resume(throwing: CancellationError())
        case nil: break
        }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
        state.cancelledEarly.insert(id)
        return nil
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
