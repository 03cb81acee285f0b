import Dispatch
import Foundation

/// Runs Foundation's JSON coding on a thread of its own with a deep stack,
/// and waits for it.
///
/// `JSONDecoder` keeps several copies of the value it builds on the stack,
/// and `JSONEncoder` several of the value it reads: decoding a state of
/// 64 KiB stored inline takes about 2 MiB of stack, encoding it about
/// 320 KiB. A secondary thread or a Swift concurrency thread on
/// Apple platforms has 512 KiB, so restoring or writing such a state on one
/// would overflow its stack. The coding runs here instead, on a thread with
/// `stackSize` bytes, started for the call and ended before it returns.
///
/// The calling thread only waits: it holds nothing the worker needs, so
/// calling from the main actor cannot deadlock unless `body` itself waits
/// for the main thread.
enum CodingThread {
  /// The worker's stack: a state stored inline needs about 32 times its
  /// size to decode, so this serves parts up to about 512 KiB inline. It is
  /// address space reserved for the call; only what is used is committed.
  static let stackSize = 16 << 20

  /// Runs `body` on a new thread with `stackSize` bytes of stack and returns
  /// what it returned, or throws what it threw.
  ///
  /// - Complexity: One thread started and joined (tens of microseconds),
  ///   plus `body`.
  static func run<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let outcome = LockedBox<Result<Value, Failure>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let result = Result { () throws(Failure) -> Value in try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    // Taken out so that the worker, which may still be finishing, holds no
    // copy of the value.
    let result = outcome.withLock { outcome in
      defer { outcome = nil }
      return outcome
    }
    guard let result else { preconditionFailure("Verge: the coding thread ended without a result") }
    return try result.get()
  }
}
