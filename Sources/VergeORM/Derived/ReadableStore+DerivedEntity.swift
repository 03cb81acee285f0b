/// Derived entities on every store shape: a core `Store`, VergeNeue's
/// `ActionStore`, `ReducerStore` and scopes, and any `StoreComponentType`
/// (for a scope, `database` is a key path into the scope's part).
extension ReadableStore {
  /// A derived value for one entity that publishes only when that entity
  /// changes; `nil` while it does not exist.
  ///
  /// ```swift
  /// let book: Derived<Book?> = store.derivedEntity(bookID, in: \.database)
  /// book.sinkState { changes in render(changes.current) }.storeWhileSourceActive()
  /// ```
  ///
  /// - Parameters:
  ///   - id: The entity's ID.
  ///   - database: Where the database sits in the state.
  /// - Returns: The derived entity.
  /// - Complexity: Per commit, O(1) when the entity's table was not touched
  ///   or the batch that touched it did not touch this entity; otherwise one
  ///   O(log₁₆ n) lookup and one comparison.
  @inlinable
  public func derivedEntity<Database: DatabaseType, Entity: EntityType>(
    _ id: Entity.EntityID,
    in database: KeyPath<State, Database> & Sendable
  ) -> Derived<Entity?> {
    derived(Pipeline<State, Entity?>(comparedBy: ==) {
      var tracker = EntityTracker<Entity>(id: id)
      return { state in tracker.lookUp(in: state[keyPath: database]._backingStorage) }
    })
  }

  /// A derived value for one entity that keeps the last known value when the
  /// entity is deleted, and publishes only when that entity changes.
  ///
  /// - Parameters:
  ///   - id: The ID of an entity that exists now.
  ///   - database: Where the database sits in the state.
  /// - Returns: The derived entity.
  /// - Throws: `DatabaseError.entityNotFound` when the entity does not exist.
  /// - Complexity: As `derivedEntity(_:in:)`.
  public func derivedNonNullEntity<Database: DatabaseType, Entity: EntityType>(
    _ id: Entity.EntityID,
    in database: KeyPath<State, Database> & Sendable
  ) throws(DatabaseError) -> Derived<Entity> {
    guard let initial = state.current[keyPath: database].entities(of: Entity.self).find(by: id) else {
      throw .entityNotFound("\(id)")
    }
    return derived(Pipeline<State, Entity>(comparedBy: ==) {
      var tracker = EntityTracker<Entity>(id: id)
      var last = initial
      return { state in
        switch tracker.lookUp(in: state[keyPath: database]._backingStorage) {
        case .none: return nil
        case .some(.some(let entity)):
          last = entity
          return entity
        case .some(.none): return last
        }
      }
    })
  }

  /// A derived value for the entities of an ordered index, in its order;
  /// publishes when the index or one of its entities changes.
  ///
  /// ```swift
  /// let shelf: Derived<[Book]> = store.derivedEntities(in: \.database, orderedBy: \.allBooks)
  /// ```
  ///
  /// - Parameters:
  ///   - database: Where the database sits in the state.
  ///   - index: The ordered index, in the database's `Indexes`.
  /// - Returns: The derived entities.
  /// - Complexity: Per commit, O(1) when neither the index nor the entity
  ///   table was touched; otherwise O(k log₁₆ n) for k IDs in the index.
  public func derivedEntities<Database: DatabaseType, Entity: EntityType>(
    in database: KeyPath<State, Database> & Sendable,
    orderedBy index: KeyPath<Database.Indexes, IndexKey<OrderedIDIndex<Entity>>> & Sendable
  ) -> Derived<[Entity]> {
    let name = indexName(of: index)
    return derived(Pipeline<State, [Entity]>(comparedBy: ==) {
      var seen: (table: UInt64, index: UInt64)?
      return { state in
        let storage = state[keyPath: database]._backingStorage
        let table = storage.table(Entity.self)
        let ids = storage.index(named: name, as: OrderedIDIndex<Entity>.self)
        if let seen, seen.table == table.version, seen.index == ids.version { return nil }
        seen = (table.version, ids.version)
        return ids.ids.compactMap { table.entities[$0] }
      }
    })
  }
}

extension DatabaseType {
  func entities<Entity: EntityType>(of type: Entity.Type) -> EntityTable<Entity> {
    EntityTable(box: _backingStorage.box(type))
  }
}

/// Follows one entity across database versions, reading it only when the
/// last batch may have changed it.
@usableFromInline
struct EntityTracker<Entity: EntityType> {
  @usableFromInline let id: Entity.EntityID
  @usableFromInline var databaseVersion: UInt64?
  @usableFromInline var tableVersion: UInt64?

  @inlinable
  init(id: Entity.EntityID) {
    self.id = id
  }

  /// `nil` when the entity cannot have changed since the last call;
  /// otherwise the entity as stored now (`.some(nil)` when missing).
  @inlinable
  mutating func lookUp<Schema, Indexes>(in storage: DatabaseStorage<Schema, Indexes>) -> Entity??
  {
    if let databaseVersion, databaseVersion == storage.version { return .none }
    databaseVersion = storage.version
    let table = storage.table(Entity.self)
    if let seen = tableVersion {
      if seen == table.version { return .none }
      if seen == table.previousVersion && !table.touched.contains(id) {
        tableVersion = table.version
        return .none
      }
    }
    tableVersion = table.version
    return .some(table.entities[id])
  }
}
