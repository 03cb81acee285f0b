import Verge

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
