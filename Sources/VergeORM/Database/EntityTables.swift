/// A database's tables by entity type: a short array searched by identity.
///
/// A schema declares a handful of tables, so comparing `ObjectIdentifier`s
/// one by one is cheaper than hashing one per read as a `Dictionary` would
/// (a `find(by:)` already hashes its ID once for the trie).
@usableFromInline
struct EntityTables: Sendable, Sequence {
  @usableFromInline var entries: [(key: ObjectIdentifier, table: AnyEntityTableBox)] = []

  @inlinable
  init() {}

  /// The table of the entity type `key`, or `nil`; setting `nil` removes it.
  @inlinable
  subscript(key: ObjectIdentifier) -> AnyEntityTableBox? {
    get {
      for entry in entries where entry.key == key { return entry.table }
      return nil
    }
    set {
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue {
          entries[index].table = newValue
        } else {
          entries.remove(at: index)
        }
      } else if let newValue {
        entries.append((key, newValue))
      }
    }
  }

  /// Removes and returns the table of the entity type `key`.
  @inlinable
  mutating func removeValue(forKey key: ObjectIdentifier) -> AnyEntityTableBox? {
    guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
    return entries.remove(at: index).table
  }

  /// The entity types that have a table.
  var keys: [ObjectIdentifier] { entries.map(\.key) }

  @usableFromInline
  func makeIterator() -> IndexingIterator<[(key: ObjectIdentifier, table: AnyEntityTableBox)]> {
    entries.makeIterator()
  }
}
