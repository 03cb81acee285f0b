/// The tables and indexes of a database: the one stored property a
/// `DatabaseType` declares (`var _backingStorage: BackingStorage = .init()`).
///
/// Copies share their contents; a batch copies only the paths it writes.
/// Read it through the database (`database.entities`, `database.indexes`)
/// and change it with `performBatchUpdates`.
public struct DatabaseStorage<Schema: EntitySchemaType, Indexes: IndexesType>: Sendable, Equatable {
  @usableFromInline var tables = EntityTables()
  var indexes: [String: any AnyIndexStorage] = [:]
  /// Changes whenever a batch changes anything; 0 for the empty storage.
  @usableFromInline var version: UInt64 = 0
  /// The version of the storage this one was made from by a batch that
  /// changed at least one entity, so that the two differ; `nil` when this one
  /// was made otherwise (decoded, or by a batch that wrote only indexes).
  @usableFromInline var changedFrom: UInt64?

  /// An empty database.
  public init() {}

  /// Two storages are equal when they hold equal tables and indexes.
  ///
  /// Version stamps come from one global counter and each is given to one
  /// content once, so equal versions mean equal contents; a storage and the
  /// one a batch made from it by changing entities differ. Both are decided
  /// in O(1), which covers a store comparing its state before and after a
  /// commit. Other pairs are compared table by table and index by index.
  ///
  /// - Complexity: O(1) for copies and for a storage and the one a batch made
  ///   from it; otherwise a table or index that did not change since they
  ///   were copied is skipped in O(1), and a changed table is compared only
  ///   along the paths that differ.
  @inlinable
  public static func == (lhs: DatabaseStorage, rhs: DatabaseStorage) -> Bool {
    if lhs.version == rhs.version { return true }
    if rhs.changedFrom == lhs.version || lhs.changedFrom == rhs.version { return false }
    return haveEqualParts(lhs, rhs)
  }

  /// Compares table by table and index by index.
  @usableFromInline
  static func haveEqualParts(_ lhs: DatabaseStorage, _ rhs: DatabaseStorage) -> Bool {
    for key in Set(lhs.tables.keys).union(rhs.tables.keys) {
      let equal =
        lhs.tables[key]?.isContentEqual(to: rhs.tables[key])
        ?? rhs.tables[key]!.isContentEqual(to: nil)
      if !equal { return false }
    }
    for key in Set(lhs.indexes.keys).union(rhs.indexes.keys) {
      let left = lhs.indexes[key]
      let right = rhs.indexes[key]
      if left?.version == right?.version, left != nil { continue }
      let equal = left?.isContentEqual(to: right) ?? right!.isContentEqual(to: nil)
      if !equal { return false }
    }
    return true
  }

  @inlinable
  func table<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    guard let table = tables[ObjectIdentifier(type)] else { return .empty }
    return table.table(Entity.self)
  }

  /// The box of the table of `Entity`, or `nil` for an empty table.
  @inlinable
  func box<Entity: EntityType>(_ type: Entity.Type) -> EntityTableBox<Entity>? {
    guard let table = tables[ObjectIdentifier(type)] else { return nil }
    return unsafeDowncast(table, to: EntityTableBox<Entity>.self)
  }

  func index<Index: DatabaseIndexType>(named name: String, as type: Index.Type) -> Index {
    guard let index = indexes[name] else { return Index() }
    return index as! Index
  }
}

/// The property name of an index key path (`\Indexes.allBooks` → `allBooks`):
/// the index's storage key and its name in the encoded database.
func indexName(of keyPath: AnyKeyPath) -> String {
  let description = String(describing: keyPath)
  guard let dot = description.lastIndex(of: "."), description.first == "\\" else {
    fatalError("VergeORM: cannot name the index key path \(description); declare indexes as stored properties")
  }
  return String(description[description.index(after: dot)...])
}
