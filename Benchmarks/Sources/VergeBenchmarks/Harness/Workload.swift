/// One side of a comparison: performs a number of operations on a store
/// that was set up beforehand.
struct Workload {
  /// Performs `iterations` operations.
  let run: (_ iterations: Int) -> Void
  /// Objects that must live as long as the workload (subscription tokens,
  /// derived values).
  let keepAlive: [AnyObject]

  init(keepAlive: [AnyObject] = [], run: @escaping (_ iterations: Int) -> Void) {
    self.keepAlive = keepAlive
    self.run = run
  }
}

/// A position that moves through a collection across batches, so that every
/// batch touches the next elements instead of the first ones again.
final class Cursor {
  private let count: Int
  private(set) var position = 0

  init(count: Int) {
    self.count = count
  }

  /// The current position; moves to the next one.
  @inline(__always)
  func next() -> Int {
    let current = position
    position = current + 1 == count ? 0 : current + 1
    return current
  }
}
