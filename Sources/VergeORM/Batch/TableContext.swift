/// The tables of a batch, by schema property: `context.entities.book`.
@dynamicMemberLookup
public struct BatchEntities<Database: DatabaseType> {
  @usableFromInline let context: DatabaseBatchUpdatesContext<Database>

  @inlinable
  init(context: DatabaseBatchUpdatesContext<Database>) {
    self.context = context
  }

  /// The table declared by `keyPath` in the schema, writable.
  @inlinable
  public subscript<Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Schema, EntityTableKey<Entity>>
  ) -> TableContext<Database, Entity> {
    TableContext(context: context)
  }

  /// The table of `type`, writable, named by its entity type as Verge's
  /// `table(_:)` does: `context.entities.table(Book.self)`.
  ///
  /// - Parameter type: An entity type the schema declares a table for.
  /// - Returns: The table.
  @inlinable
  public func table<Entity: EntityType>(_ type: Entity.Type) -> TableContext<Database, Entity> {
    TableContext(context: context)
  }
}

/// One table inside a batch: writes, and reads that see the batch's writes.
public struct TableContext<Database: DatabaseType, Entity: EntityType> {
  @usableFromInline let context: DatabaseBatchUpdatesContext<Database>

  @inlinable
  init(context: DatabaseBatchUpdatesContext<Database>) {
    self.context = context
  }

  // MARK: Writing

  /// Inserts an entity, replacing one with the same ID.
  ///
  /// - Parameter entity: The entity.
  /// - Returns: The entity inserted.
  /// - Complexity: O(log₁₆ n).
  @inlinable
  @discardableResult
  public func insert(_ entity: Entity) -> Entity {
    context.write(Entity.self) { table, touches in
      let old = table.entities.updateValue(entity, forKey: entity.entityID)
      touches.note(entity.entityID, before: old, after: entity)
    }
    return entity
  }

  /// Inserts entities, each replacing one with the same ID (a later one in
  /// `entities` replaces an earlier one).
  ///
  /// - Parameter entities: The entities.
  /// - Returns: The entities inserted, in order.
  /// - Complexity: O(k log₁₆ n) for k entities.
  @inlinable
  @discardableResult
  public func insert<Entities: Sequence<Entity>>(_ entities: Entities) -> [Entity] {
    let entities = Array(entities)
    context.write(Entity.self) { table, touches in
      touches.reserveCapacity(entities.count)
      for entity in entities {
        let old = table.entities.updateValue(entity, forKey: entity.entityID)
        touches.note(entity.entityID, before: old, after: entity)
      }
    }
    return entities
  }

  /// Changes the entity with `id` in place.
  ///
  /// ```swift
  /// try context.entities.book.update(id) { $0.name = "Dune" }
  /// ```
  ///
  /// - Parameters:
  ///   - id: The entity's ID.
  ///   - body: Changes the entity; it must not change the ID.
  /// - Returns: The updated entity.
  /// - Throws: `DatabaseError.entityNotFound` when there is no such entity,
  ///   `DatabaseError.entityIDChanged` when `body` changed the ID; the table
  ///   is then unchanged.
  /// - Complexity: O(log₁₆ n).
  @inlinable
  @discardableResult
  public func update(_ id: Entity.EntityID, _ body: (inout Entity) -> Void) throws(DatabaseError) -> Entity {
    guard var entity = context.read(Entity.self).entities[id] else {
      throw .entityNotFound("\(id)")
    }
    body(&entity)
    guard entity.entityID == id else {
      throw .entityIDChanged(from: "\(id)", to: "\(entity.entityID)")
    }
    context.write(Entity.self) { table, touches in
      let old = table.entities.updateValue(entity, forKey: id)
      touches.note(id, before: old, after: entity)
    }
    return entity
  }

  /// Updates the entity with `id` in place when there is one: Verge's
  /// `updateIfExists`, which does not throw.
  ///
  /// ```swift
  /// context.entities.author.updateIfExists(id: .init("a1")) { $0.name = "Le Guin" }
  /// ```
  ///
  /// - Parameters:
  ///   - id: The entity's ID.
  ///   - body: Changes the entity; it must keep the ID.
  /// - Returns: The updated entity, or `nil` when there is no such entity or
  ///   `body` changed the ID (the table is then unchanged; `update(_:_:)`
  ///   says which, with a typed error).
  /// - Complexity: O(log₁₆ n).
  @inlinable
  @discardableResult
  public func updateIfExists(id: Entity.EntityID, _ body: (inout Entity) -> Void) -> Entity? {
    try? update(id, body)
  }

  /// Deletes the entity with `id` and removes it from every index; deleting
  /// a missing ID does nothing.
  ///
  /// - Parameter id: The entity's ID.
  /// - Returns: The deleted entity, or `nil` when there was none.
  /// - Complexity: O(log₁₆ n), plus the indexes that hold this entity type.
  @discardableResult
  public func delete(_ id: Entity.EntityID) -> Entity? {
    delete([id]).first
  }

  /// Deletes the entities with `ids` and removes them from every index;
  /// missing IDs are skipped.
  ///
  /// - Parameter ids: The IDs.
  /// - Returns: The deleted entities.
  /// - Complexity: O(k log₁₆ n) for k IDs, plus one pass over each index that
  ///   holds this entity type.
  @discardableResult
  public func delete<IDs: Sequence<EntityIdentifier<Entity>>>(_ ids: IDs) -> [Entity] {
    let deleted: [Entity] = context.write(Entity.self) { table, touches in
      var deleted: [Entity] = []
      for id in ids {
        guard let old = table.entities.removeValue(forKey: id) else { continue }
        touches.note(id, before: old, after: nil)
        deleted.append(old)
      }
      return deleted
    }
    context.removeFromIndexes(Set(deleted.map(\.entityID)))
    return deleted
  }

  /// Deletes every entity of the table and removes them from every index.
  ///
  /// - Complexity: O(n).
  public func deleteAll() {
    let ids: Set<Entity.EntityID> = context.write(Entity.self) { table, touches in
      var ids = Set<Entity.EntityID>(minimumCapacity: table.entities.count)
      for (id, entity) in table.entities {
        touches.note(id, before: entity, after: nil)
        ids.insert(id)
      }
      table.entities.removeAll()
      return ids
    }
    context.removeFromIndexes(ids)
  }

  // MARK: Reading

  /// The entity with `id`, as the batch has left it so far.
  ///
  /// - Parameter id: The ID.
  /// - Returns: The entity, or `nil`.
  @inlinable
  public func find(by id: Entity.EntityID) -> Entity? {
    context.read(Entity.self).entities[id]
  }

  /// The entities with `ids`, in the order asked, skipping missing ones.
  ///
  /// - Parameter ids: The IDs.
  /// - Returns: The entities found.
  public func find<IDs: Sequence<EntityIdentifier<Entity>>>(in ids: IDs) -> [Entity] {
    let table = context.read(Entity.self)
    return ids.compactMap { table.entities[$0] }
  }

  /// The table as the batch has left it so far, as a value: Verge's
  /// `context.book.current`, for code that reads
  /// `current.find(by:)` before writing. Later writes in the batch do not
  /// change a table already read.
  ///
  /// - Complexity: O(1): the table's storage is shared, copied on write.
  public var current: EntityTable<Entity> {
    EntityTable(box: EntityTableBox(context.read(Entity.self)))
  }

  /// Every entity, as the batch has left them so far.
  ///
  /// - Returns: The entities.
  public func all() -> [Entity] {
    context.read(Entity.self).entities.map(\.value)
  }

  /// The number of entities.
  public var count: Int { context.read(Entity.self).entities.count }

  /// Whether an entity has `id`.
  ///
  /// - Parameter id: The ID.
  /// - Returns: `true` when present.
  @inlinable
  public func contains(_ id: Entity.EntityID) -> Bool {
    context.read(Entity.self).entities[id] != nil
  }
}
