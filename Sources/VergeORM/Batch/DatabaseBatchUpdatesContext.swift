/// The database as a batch sees it: write through `entities` and `indexes`,
/// read back what the batch already wrote, see `changes` so far.
///
/// ```swift
/// database.performBatchUpdates { context in
///   let book = context.entities.book.insert(Book(rawID: "1", authorID: author))
///   try context.indexes.allBooks.append(book.entityID)
///   try context.entities.book.update(book.entityID) { $0.name = "Dune" }
/// }
/// ```
///
/// A context is valid only inside the closure (or middleware) that received
/// it; it works on a draft that replaces the database only when the batch
/// succeeds.
public final class DatabaseBatchUpdatesContext<Database: DatabaseType> {
  @usableFromInline var tables: [ObjectIdentifier: any AnyEntityTableStorage]
  var draftIndexes: [String: any AnyIndexStorage]
  /// Per touched table: whether each touched ID existed before the batch.
  @usableFromInline var touches: [ObjectIdentifier: any AnyTableTouches] = [:]
  var touchedIndexes: Set<String> = []

  @usableFromInline
  init(storage: Database.BackingStorage) {
    tables = storage.tables
    draftIndexes = storage.indexes
  }

  /// The tables, by schema property: `context.entities.book`.
  public var entities: BatchEntities<Database> { BatchEntities(context: self) }

  /// The indexes, by property: `context.indexes.allBooks`.
  public var indexes: BatchIndexes<Database> { BatchIndexes(context: self) }

  /// What the batch inserted, updated and deleted so far, net of each other
  /// (an entity inserted and deleted in the same batch appears nowhere).
  public var changes: DatabaseChanges<Database> {
    DatabaseChanges(tables: touches.mapValues { $0.changes(in: self) })
  }

  // MARK: Tables

  @inlinable
  func read<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    guard let table = tables[ObjectIdentifier(type)] else { return .empty }
    return table as! EntityTableStorage<Entity>
  }

  /// Takes the table out of the dictionary so the draft is its only owner
  /// while `body` writes to it.
  @inlinable
  func write<Entity: EntityType, Result>(
    _ type: Entity.Type, _ body: (inout EntityTableStorage<Entity>, inout TableTouches<Entity>) -> Result
  ) -> Result {
    let key = ObjectIdentifier(type)
    var table = takeTable(Entity.self)
    var touched = takeTouches(Entity.self)
    defer {
      tables[key] = table
      touches[key] = touched
    }
    return body(&table, &touched)
  }

  @inlinable
  func takeTable<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    guard let table = tables.removeValue(forKey: ObjectIdentifier(type)) else { return .empty }
    return table as! EntityTableStorage<Entity>
  }

  @inlinable
  func takeTouches<Entity: EntityType>(_ type: Entity.Type) -> TableTouches<Entity> {
    guard let touched = touches.removeValue(forKey: ObjectIdentifier(type)) else { return TableTouches() }
    return touched as! TableTouches<Entity>
  }

  /// Removes deleted IDs from every index that holds their type.
  func removeFromIndexes<Entity: EntityType>(_ ids: Set<Entity.EntityID>) {
    guard !ids.isEmpty else { return }
    let type = ObjectIdentifier(Entity.self)
    for name in Array(draftIndexes.keys) where draftIndexes[name]!.references(type) {
      var index = draftIndexes.removeValue(forKey: name)!
      if index.removeEntities(ids) {
        index.version = nextDatabaseVersion()
        touchedIndexes.insert(name)
      }
      draftIndexes[name] = index
    }
  }

  // MARK: Indexes

  func readIndex<Index: DatabaseIndexType>(_ name: String, as type: Index.Type) -> Index {
    guard let index = draftIndexes[name] else { return Index() }
    return index as! Index
  }

  /// Takes the index out of the dictionary while `body` writes to it; on
  /// success stamps a new version. `body` validates before it writes.
  func writeIndex<Index: DatabaseIndexType & AnyIndexStorage, Result>(
    _ name: String, as type: Index.Type, _ body: (inout Index) throws(DatabaseError) -> Result
  ) throws(DatabaseError) -> Result {
    var index = draftIndexes.removeValue(forKey: name).map { $0 as! Index } ?? Index()
    defer { draftIndexes[name] = index }
    let result = try body(&index)
    index.version = nextDatabaseVersion()
    touchedIndexes.insert(name)
    return result
  }

  func requireEntity<Entity: EntityType>(_ id: Entity.EntityID) throws(DatabaseError) {
    guard read(Entity.self).entities[id] != nil else { throw .entityNotFound("\(id)") }
  }

  // MARK: Applying

  /// Runs the middlewares, drops groups of deleted group entities and
  /// stamps new versions; returns the storage to assign and the changes.
  @usableFromInline
  func finish(from storage: Database.BackingStorage) -> (Database.BackingStorage, DatabaseChanges<Database>) {
    for middleware in Database.middlewares {
      middleware.run(self)
    }
    let changes = self.changes
    for (_, tableChanges) in changes.tables {
      tableChanges.removeDeletedGroups(in: self)
    }
    guard !touches.isEmpty || !touchedIndexes.isEmpty else { return (storage, changes) }
    var result = storage
    for (key, touched) in touches {
      tables[key] = touched.stamp(tables[key]!)
    }
    result.tables = tables
    result.indexes = draftIndexes
    result.version = nextDatabaseVersion()
    return (result, changes)
  }
}

/// The touched IDs of one table and whether each existed before the batch.
@usableFromInline
struct TableTouches<Entity: EntityType>: AnyTableTouches {
  @usableFromInline var existedBefore: [Entity.EntityID: Bool] = [:]

  @inlinable
  init() {}

  @inlinable
  mutating func note(_ id: Entity.EntityID, existed: Bool) {
    if existedBefore[id] == nil { existedBefore[id] = existed }
  }

  @usableFromInline
  func changes<Database>(in context: DatabaseBatchUpdatesContext<Database>) -> any AnyTableChanges {
    let table = context.read(Entity.self)
    var changes = TableChanges<Entity>()
    for (id, before) in existedBefore {
      switch (before, table.entities[id] != nil) {
      case (true, true): changes.updated.insert(id)
      case (false, true): changes.inserted.insert(id)
      case (true, false): changes.deleted.insert(id)
      case (false, false): break
      }
    }
    return changes
  }

  @usableFromInline
  func stamp(_ table: any AnyEntityTableStorage) -> any AnyEntityTableStorage {
    var table = table as! EntityTableStorage<Entity>
    table.previousVersion = table.version
    table.version = nextDatabaseVersion()
    table.touched = Set(existedBefore.keys)
    return table
  }
}

@usableFromInline
protocol AnyTableTouches {
  func changes<Database>(in context: DatabaseBatchUpdatesContext<Database>) -> any AnyTableChanges
  func stamp(_ table: any AnyEntityTableStorage) -> any AnyEntityTableStorage
}
