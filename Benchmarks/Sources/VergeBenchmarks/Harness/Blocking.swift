import Dispatch

/// Runs async work to its end from synchronous code, blocking the calling
/// thread: the harness times synchronous batches, and async workloads (a
/// `TestStore`) run one whole batch per call so that the hop into the task
/// is spread over the batch.
///
/// The task starts on the calling thread (`Task.immediate`) and stays there
/// until it first suspends, so that work that never suspends (a
/// `TestStore` step whose action is reduced synchronously) is counted by
/// callgrind, which collects on the measuring thread only.
func runBlocking(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    Task.immediate {
      await body()
      done.signal()
    }
  } else {
    Task {
      await body()
      done.signal()
    }
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
