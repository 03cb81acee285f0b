import Dispatch

/// Runs async work to its end from synchronous code, blocking the calling
/// thread: the harness times synchronous batches, and async workloads (a
/// `TestStore`) run one whole batch per call so that the hop into the task
/// is spread over the batch.
func runBlocking(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task {
    await body()
    done.signal()
  }
  done.wait()
}

/// A value handed to the task of `runBlocking`; see `Unshared+Sendable.swift`.
final class Unshared<Value> {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
