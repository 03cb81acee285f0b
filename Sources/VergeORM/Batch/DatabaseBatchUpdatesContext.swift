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
  @usableFromInline var tables: EntityTables
  var draftIndexes: [String: any AnyIndexStorage]
  /// Per written table: each written ID's entity before the batch, whether
  /// it exists now and whether it changed.
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
  ///
  /// - Complexity: O(1); reading one table's changes is O(k) for k IDs the
  ///   batch wrote in it.
  public var changes: DatabaseChanges<Database> {
    DatabaseChanges(tables: touches)
  }

  // MARK: Tables

  @inlinable
  func read<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    guard let table = tables[ObjectIdentifier(type)] else { return .empty }
    return table.table(Entity.self)
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
      touched.stampIfChanged(&table)
      tables[key] = EntityTableBox(table)
      touches[key] = touched
    }
    return body(&table, &touched)
  }

  @inlinable
  func takeTable<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    guard let table = tables.removeValue(forKey: ObjectIdentifier(type)) else { return .empty }
    return table.table(Entity.self)
  }

  @inlinable
  func takeTouches<Entity: EntityType>(_ type: Entity.Type) -> TableTouches<Entity> {
    guard let touched = touches.removeValue(forKey: ObjectIdentifier(type)) else { return TableTouches() }
    return touched as! TableTouches<Entity>
  }

  /// Drops the groups keyed by `ids` from every group-by-entity index keyed
  /// by their type.
  func removeGroups<Entity: EntityType>(keyedBy ids: Set<Entity.EntityID>) {
    guard !ids.isEmpty else { return }
    let type = ObjectIdentifier(Entity.self)
    for name in Array(draftIndexes.keys) where draftIndexes[name]!.references(type) {
      var index = draftIndexes.removeValue(forKey: name)!
      if index.removeGroups(keyedBy: ids) {
        index.version = nextDatabaseVersion()
        touchedIndexes.insert(name)
      }
      draftIndexes[name] = index
    }
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

  /// Runs the middlewares and drops the groups of group entities that the
  /// batch removed (also those it inserted first); stamps
  /// new versions on what changed and returns the storage to assign and the
  /// changes.
  ///
  /// A table whose entities all compare equal to those before the batch is
  /// put back as it was (same nodes, same version); when no entity changed
  /// and no index was written, `storage` itself is returned.
  @usableFromInline
  func finish(from storage: Database.BackingStorage) -> (Database.BackingStorage, DatabaseChanges<Database>) {
    for middleware in Database.middlewares {
      middleware.run(self)
    }
    if !draftIndexes.isEmpty {
      for touched in touches.values where touched.hasRemovedIDs {
        touched.removeGroupsOfRemovedIDs(in: self)
      }
    }
    let changes = self.changes
    guard !touches.isEmpty || !touchedIndexes.isEmpty else { return (storage, changes) }
    var entitiesChanged = false
    for (key, touched) in touches {
      if touched.changedCount == 0 {
        tables[key] = storage.tables[key]
      } else {
        entitiesChanged = true
        if touched.writesManyIDs { tables[key] = touched.recordTouchedIDs(in: tables[key]!) }
      }
    }
    guard entitiesChanged || !touchedIndexes.isEmpty else { return (storage, changes) }
    var result = storage
    result.tables = tables
    result.indexes = draftIndexes
    result.changedFrom = entitiesChanged ? storage.version : nil
    result.version = nextDatabaseVersion()
    return (result, changes)
  }
}

/// The IDs a batch wrote in one table: for each, the entity before the batch,
/// whether one exists now and whether it differs from the one before.
///
/// One written ID, the common case, is kept without a dictionary.
@usableFromInline
struct TableTouches<Entity: EntityType>: AnyTableTouches {
  @usableFromInline
  struct Touch: Sendable {
    /// The entity before the batch.
    @usableFromInline var original: Entity?
    /// Whether an entity has the ID now.
    @usableFromInline var exists: Bool
    /// Whether the entity now differs from `original`.
    @usableFromInline var changed: Bool

    @inlinable
    init(original: Entity?, now: Entity?) {
      self.original = original
      exists = now != nil
      changed = original != now
    }
  }

  /// The only written ID while there is one.
  @usableFromInline var singleID: Entity.EntityID?
  @usableFromInline var single: Touch?
  /// Every written ID once there are two or more.
  @usableFromInline var many: [Entity.EntityID: Touch] = [:]
  /// How many written IDs hold an entity that differs from the one before.
  @usableFromInline var changedCount = 0
  /// Whether the table got its new version in this batch.
  @usableFromInline var isStamped = false

  @inlinable
  init() {}

  /// Records a write of `id`: `before` is what the table held just before
  /// this write, `after` what it holds now.
  ///
  /// - Complexity: O(1) for the first ID; amortized O(1) after.
  @inlinable
  mutating func note(_ id: Entity.EntityID, before: Entity?, after: Entity?) {
    if many.isEmpty, let singleID, let single, singleID == id {
      let touch = Touch(original: single.original, now: after)
      changedCount += (touch.changed ? 1 : 0) - (single.changed ? 1 : 0)
      self.single = touch
      return
    }
    if many.isEmpty, single == nil {
      let touch = Touch(original: before, now: after)
      if touch.changed { changedCount += 1 }
      singleID = id
      single = touch
      return
    }
    noteAmongMany(id, before: before, after: after)
  }

  @inlinable
  mutating func noteAmongMany(_ id: Entity.EntityID, before: Entity?, after: Entity?) {
    if let singleID, let single {
      many[singleID] = single
      self.singleID = nil
      self.single = nil
    }
    if let previous = many[id] {
      let touch = Touch(original: previous.original, now: after)
      changedCount += (touch.changed ? 1 : 0) - (previous.changed ? 1 : 0)
      many[id] = touch
    } else {
      let touch = Touch(original: before, now: after)
      if touch.changed { changedCount += 1 }
      many[id] = touch
    }
  }

  /// Makes room for `count` more written IDs, before a write of many.
  @inlinable
  mutating func reserveCapacity(_ count: Int) {
    if count > 1 { many.reserveCapacity(many.count + count + 1) }
  }

  /// Calls `body` with each written ID and its touch.
  @inlinable
  func forEach(_ body: (Entity.EntityID, Touch) -> Void) {
    if let singleID, let single { body(singleID, single) }
    for (id, touch) in many { body(id, touch) }
  }

  /// What the batch inserted, updated and deleted in this table, net.
  @usableFromInline
  var tableChanges: TableChanges<Entity> {
    var changes = TableChanges<Entity>()
    forEach { id, touch in
      switch (touch.original != nil, touch.exists) {
      case (true, true): changes.updated.insert(id)
      case (false, true): changes.inserted.insert(id)
      case (true, false): changes.deleted.insert(id)
      case (false, false): break
      }
    }
    return changes
  }

  /// Whether an ID the batch wrote has no entity now: deleted, whether or
  /// not it existed before the batch.
  @usableFromInline
  var hasRemovedIDs: Bool {
    var found = false
    forEach { _, touch in found = found || !touch.exists }
    return found
  }

  @usableFromInline
  var hasNetChanges: Bool {
    var found = false
    forEach { _, touch in found = found || touch.original != nil || touch.exists }
    return found
  }

  /// Drops the groups keyed by every written ID that has no entity now.
  ///
  /// Not only the net deletions (`tableChanges.deleted`): an entity that
  /// the batch inserted, used as a group and deleted again is in no change
  /// set, yet its group must go, or the database could not be decoded.
  @usableFromInline
  func removeGroupsOfRemovedIDs<Database>(in context: DatabaseBatchUpdatesContext<Database>) {
    var removed = Set<Entity.EntityID>()
    forEach { id, touch in
      if !touch.exists { removed.insert(id) }
    }
    context.removeGroups(keyedBy: removed)
  }

  /// Stamps a new version on `table` the first time the batch leaves its
  /// entities different from those before the batch, and records the one
  /// changed ID (several are recorded by `recordTouchedIDs(in:)` at the end
  /// of the batch). When later writes undo every change, the batch puts the
  /// table before it back instead.
  @inlinable
  mutating func stampIfChanged(_ table: inout EntityTableStorage<Entity>) {
    guard changedCount > 0 else { return }
    if !isStamped {
      table.previousVersion = table.version
      table.version = nextDatabaseVersion()
      isStamped = true
    }
    if many.isEmpty, let singleID {
      table.touched = .one(singleID)
    }
  }

  @usableFromInline
  var writesManyIDs: Bool { !many.isEmpty }

  @usableFromInline
  func recordTouchedIDs(in table: AnyEntityTableBox) -> AnyEntityTableBox {
    var table = table.table(Entity.self)
    guard changedCount <= TouchedIDs<Entity.EntityID>.listLimit else {
      table.touched = .unlisted
      return EntityTableBox(table)
    }
    var ids = Set<Entity.EntityID>(minimumCapacity: changedCount)
    for (id, touch) in many where touch.changed { ids.insert(id) }
    table.touched = .many(ids)
    return EntityTableBox(table)
  }
}

/// A table's touches whose entity type is known only at run time.
@usableFromInline
protocol AnyTableTouches: Sendable {
  var changedCount: Int { get }
  var hasRemovedIDs: Bool { get }
  var hasNetChanges: Bool { get }
  func removeGroupsOfRemovedIDs<Database>(in context: DatabaseBatchUpdatesContext<Database>)
  var writesManyIDs: Bool { get }
  func recordTouchedIDs(in table: AnyEntityTableBox) -> AnyEntityTableBox
}
