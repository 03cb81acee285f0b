/// Scenario 14's element: a row as apps hold them, an `Int` id and five
/// fields, one of them a short `String` ("row 17": stored inline in the
/// string, so copying a row retains nothing; a longer title would add a
/// retain and a release to every copy, on every side alike).
struct PeerRow: Identifiable, Hashable, Sendable {
  let id: Int
  var value: Int
  var title: String
  var isRead: Bool
  var score: Double
  var timestamp: Int

  init(id: Int) {
    self.id = id
    value = 0
    title = "row \(id % 1_000)"
    isRead = false
    score = Double(id)
    timestamp = 1_700_000_000 &+ id
  }
}

/// The operations scenario 14 measures on each collection.
enum PeerOperation: CaseIterable {
  /// `rows[id: id]?.value &+= 1` with no other copy of the collection.
  case uniqueWrite
  /// The same while the previous version is held (as a store with a
  /// subscriber holds it), which is released by the next write.
  case heldWrite
  /// `rows[id: id]`.
  case read
  /// `for row in rows`, per element.
  case iterate
  /// `rows.forEach { … }`, per element.
  case forEach
  /// `rows.map { $0.value }`, per element.
  case map
  /// `rows.filter { … }` keeping every other row (a collection of the same
  /// type, so its ids are indexed again), per element.
  case filter
  /// `rows.contains { … }` of no row, so every row is read, per element.
  case contains
  /// `rows.count { … }` of every other row, per element.
  case countWhere
  /// `==` of two versions, the second made from the first by writing one
  /// element in the middle.
  case equality
  /// `remove(id:)` and `insert(_:at:)` back at its index.
  case removeAndReinsert
  /// `init(uniqueElements:)` from an array, per element.
  case build

  /// The case name's operation part.
  var label: String {
    switch self {
    case .uniqueWrite: "write by id, no other copy"
    case .heldWrite: "write by id, previous version held"
    case .read: "read by id"
    case .iterate: "iterate (per element)"
    case .forEach: "forEach (per element)"
    case .map: "map (per element)"
    case .filter: "filter (per element)"
    case .contains: "contains(where:) (per element)"
    case .countWhere: "count(where:) (per element)"
    case .equality: "== of two versions, one element differs"
    case .removeAndReinsert: "remove by id + re-insert at its place"
    case .build: "build from an array (per element)"
    }
  }

  /// Whether the figure is per element (`BenchmarkCase.units` is the size).
  var isPerElement: Bool {
    switch self {
    case .iterate, .forEach, .map, .filter, .contains, .countWhere, .build: true
    case .uniqueWrite, .heldWrite, .read, .equality, .removeAndReinsert: false
    }
  }
}

/// The rows `0..<size`, in order.
func peerRows(_ size: Int) -> [PeerRow] {
  (0..<size).map(PeerRow.init(id:))
}

/// Ids visited in a scattered order (stride 7,919, a prime), as in
/// scenarios 5 and 10.
func scatteredIDs(_ size: Int) -> () -> Int {
  let cursor = Cursor(count: size)
  return { (cursor.next() &* 7_919) % size }
}
