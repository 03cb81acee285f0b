import Synchronization
@_spi(Internal) import Verge
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

/// A copy-on-write buffer that counts how often its storage is copied, so
/// tests can prove that a commit mutated in place.
struct CopyCountingBuffer: Equatable, Sendable {
  final class Storage: @unchecked Sendable {
    // Mutated only through the uniquely referenced path of `CopyCountingBuffer`.
    var elements: [Int]
    init(_ elements: [Int]) { self.elements = elements }
  }

  static let copies = Atomic<Int>(0)

  private var storage: Storage

  init(count: Int) {
    storage = Storage(Array(repeating: 0, count: count))
  }

  subscript(index: Int) -> Int {
    get { storage.elements[index] }
    set {
      if !isKnownUniquelyReferenced(&storage) {
        Self.copies.add(1, ordering: .relaxed)
        storage = Storage(storage.elements)
      }
      storage.elements[index] = newValue
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.elements == rhs.storage.elements
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
