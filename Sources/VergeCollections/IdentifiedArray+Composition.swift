extension IdentifiedArray {
  /// The storage of the ids, to be handed back to ``idsRemoved(since:)``
  /// after the array may have changed.
  ///
  /// - Complexity: O(1).
  @inlinable
  package var idStorage: PersistentMap<ID, UInt64> {
    positions
  }

  /// Whether the array still holds its ids in `earlier` (an ``idStorage``
  /// of this array): then no id was added, removed or moved since.
  ///
  /// - Complexity: O(1).
  @inlinable
  package func hasIDStorage(identicalTo earlier: PersistentMap<ID, UInt64>) -> Bool {
    positions.isIdentical(to: earlier)
  }

  /// The ids that `earlier` (an ``idStorage`` of this array) held and the
  /// array does not hold now.
  ///
  /// - Complexity: O(1) when no id was added, removed or moved since (writes
  ///   that keep every element's id leave the storage alone); otherwise
  ///   proportional to what changed, O(k log n) for k changed ids.
  @inlinable
  package func idsRemoved(since earlier: PersistentMap<ID, UInt64>) -> [ID] {
    positions.keysRemoved(since: earlier)
  }

  /// Runs `body` on the element with `id`, in place, or returns `nil` when
  /// there is none. `body` must keep the element's id.
  ///
  /// - Complexity: O(log n) plus `body`.
  @inlinable
  package mutating func modify<Result>(id: ID, _ body: (inout Element) throws -> Result) rethrows -> Result? {
    guard let label = positions[id] else { return nil }
    let element = list.uniqueElement(label: label)
    defer { checkID(of: element.pointee, writtenUnder: id) }
    return try body(&element.pointee)
  }
}
