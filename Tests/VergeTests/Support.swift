import Synchronization
import Verge
import XCTest

/// Collects values from any thread, in arrival order.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = SharedLock<[Value]>([])

  func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  var values: [Value] {
    storage.withLock { $0 }
  }

  var count: Int {
    storage.withLock { $0.count }
  }
}

/// Runs `body` on `threads` threads at once and returns when all are done.
func concurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
  DispatchQueue.concurrentPerform(iterations: threads, execute: body)
}

/// Suspends until the calling task is cancelled.
func suspendUntilCancelled() async {
  let (stream, continuation) = AsyncStream<Never>.makeStream()
  for await _ in stream {}
  continuation.finish()  // keeps the continuation alive until the loop ends
}
