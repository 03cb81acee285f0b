import VergeCollections

/// A row with an id and a value, as apps keep in lists.
struct Row: Identifiable, Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
  let id: Int
  var value: String

  init(_ id: Int, _ value: String = "") {
    self.id = id
    self.value = value
  }

  static func < (lhs: Row, rhs: Row) -> Bool {
    (lhs.id, lhs.value) < (rhs.id, rhs.value)
  }

  var description: String { "\(id):\(value)" }
}

/// An element that is not `Identifiable`, identified by a key path.
struct Tag: Equatable, Sendable {
  var name: String
  var uses: Int
}

/// A reference whose release a test watches through a ``WeakTracked``.
final class Tracked: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

/// A weak reference to a ``Tracked``: `nil` once nothing else holds it.
struct WeakTracked {
  weak var value: Tracked?
  init(_ value: Tracked) { self.value = value }
}

/// A row holding a ``Tracked`` payload.
struct TrackedRow: Identifiable, Sendable {
  let id: Int
  var payload: Tracked
}
