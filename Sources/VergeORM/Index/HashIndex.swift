/// An index from a key you choose to one entity ID: books by ISBN, users by
/// email.
///
/// ```swift
/// try context.indexes.bookByISBN.set(book.entityID, for: "978-0")
/// let id = database.indexes.bookByISBN["978-0"]
/// ```
///
/// Several keys may point at one entity; deleting the entity removes them all.
public struct HashIndex<Key: Hashable & Sendable & Codable, Entity: EntityType>: DatabaseIndexType {
  /// The entries.
  public internal(set) var entries: [Key: Entity.EntityID] = [:]
  var keysByID: [Entity.EntityID: Set<Key>] = [:]
  var version: UInt64 = 0

  /// An empty index.
  public init() {}

  /// The ID stored for `key`.
  ///
  /// - Parameter key: The key.
  /// - Complexity: O(1).
  public subscript(key: Key) -> Entity.EntityID? { entries[key] }

  /// The number of keys.
  public var count: Int { entries.count }

  /// Two indexes are equal when they hold the same entries.
  ///
  /// - Complexity: O(1) when neither changed since they were copied;
  ///   otherwise O(n).
  public static func == (lhs: HashIndex, rhs: HashIndex) -> Bool {
    (lhs.version == rhs.version && lhs.entries.count == rhs.entries.count) || lhs.entries == rhs.entries
  }

  /// Decodes the entries.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: The decoder's error.
  public init(from decoder: any Decoder) throws {
    entries = try decoder.singleValueContainer().decode([Key: Entity.EntityID].self)
    for (key, id) in entries { keysByID[id, default: []].insert(key) }
  }

  /// Encodes the entries as a `Dictionary` encodes itself, ordered by key,
  /// so that equal indexes encode to equal bytes.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's error.
  /// - Complexity: O(n log n).
  public func encode(to encoder: any Encoder) throws {
    try StableOrder.encode(entries, sortedBy: { $0 }, to: encoder)
  }

  mutating func set(_ id: Entity.EntityID, for key: Key) {
    if let old = entries.updateValue(id, forKey: key) {
      keysByID[old]?.remove(key)
      if keysByID[old]?.isEmpty == true { keysByID[old] = nil }
    }
    keysByID[id, default: []].insert(key)
  }

  mutating func removeValue(for key: Key) -> Entity.EntityID? {
    guard let old = entries.removeValue(forKey: key) else { return nil }
    keysByID[old]?.remove(key)
    if keysByID[old]?.isEmpty == true { keysByID[old] = nil }
    return old
  }
}

extension HashIndex: AnyIndexStorage {
  func references(_ entityType: ObjectIdentifier) -> Bool {
    entityType == ObjectIdentifier(Entity.self)
  }

  mutating func removeEntities(_ ids: any Sendable) -> Bool {
    guard let ids = ids as? Set<Entity.EntityID> else { return false }
    var changed = false
    for id in ids {
      guard let keys = keysByID.removeValue(forKey: id) else { continue }
      for key in keys { entries[key] = nil }
      changed = true
    }
    return changed
  }

  func danglingEntries(in tables: TableSet) -> [String] {
    let table = tables.table(Entity.self)
    return entries.values.filter { table.entities[$0] == nil }.map { "\($0)" }
  }

  func invariantViolations() -> [String] {
    var rebuilt: [Entity.EntityID: Set<Key>] = [:]
    for (key, id) in entries { rebuilt[id, default: []].insert(key) }
    return rebuilt == keysByID ? [] : ["reverse map out of sync"]
  }
}
