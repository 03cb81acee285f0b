/// An index kind that a database keeps up to date: `OrderedIDIndex`,
/// `HashIndex`, `GroupByIndex` or `GroupByEntityIndex`.
///
/// Indexes are read from `database.indexes` and changed inside
/// `performBatchUpdates` through `context.indexes`. Deleting an entity removes
/// it from every index in the same batch.
public protocol DatabaseIndexType: Sendable, Codable, Equatable {
  /// An empty index.
  init()
}

/// Declares an index in a database's `Indexes`.
///
/// ```swift
/// struct Indexes: IndexesType {
///   let allBooks = IndexKey<OrderedIDIndex<Book>>()
/// }
/// ```
public struct IndexKey<Index: DatabaseIndexType>: Sendable {
  /// Gives the key a size, so each index property has its own offset and its
  /// key path names that property (zero-sized properties would share one).
  private let marker: UInt8 = 0

  /// Creates the key.
  public init() {}
}

/// An index key whose index type is known only at run time.
protocol AnyIndexKey: Sendable {
  func decodeIndex(
    from container: KeyedDecodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey
  ) throws -> (any AnyIndexStorage)?
}

extension IndexKey: AnyIndexKey {
  func decodeIndex(
    from container: KeyedDecodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey
  ) throws -> (any AnyIndexStorage)? {
    guard container.contains(key) else { return nil }
    guard var index = try container.decode(Index.self, forKey: key) as? any AnyIndexStorage else {
      return nil
    }
    index.version = nextDatabaseVersion()
    return index
  }
}

/// What the database needs from every index, whatever its kind.
protocol AnyIndexStorage: Sendable {
  /// Changes whenever a batch changes the index; 0 for a never-written index.
  var version: UInt64 { get set }
  /// Whether the index holds IDs of (or is keyed by) this entity type.
  func references(_ entityType: ObjectIdentifier) -> Bool
  /// Removes the entities in `ids` (a `Set<EntityIdentifier<E>>`) when they are of
  /// this index's entity type; returns whether anything changed.
  mutating func removeEntities(_ ids: any Sendable) -> Bool
  /// Removes groups keyed by the deleted entities in `ids`; returns whether
  /// anything changed.
  mutating func removeGroups(keyedBy ids: any Sendable) -> Bool
  /// Entries that point at entities missing from `tables`.
  func danglingEntries(in tables: TableSet) -> [String]
  /// Internal consistency problems (reverse maps, duplicates).
  func invariantViolations() -> [String]
  func isContentEqual(to other: (any AnyIndexStorage)?) -> Bool
  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws
}

extension AnyIndexStorage where Self: DatabaseIndexType {
  func isContentEqual(to other: (any AnyIndexStorage)?) -> Bool {
    self == (other.map { $0 as! Self } ?? Self())
  }

  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws {
    try container.encode(self, forKey: key)
  }

  func removeGroups(keyedBy ids: any Sendable) -> Bool { false }
}

/// Read access to tables by entity type, for index validation.
struct TableSet {
  var tables: EntityTables

  func table<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    guard let table = tables[ObjectIdentifier(type)] else { return .empty }
    return table.table(Entity.self)
  }

  func contains<Entity: EntityType>(_ id: Entity.EntityID) -> Bool {
    table(Entity.self).entities[id] != nil
  }
}
