/// The indexes of a batch, by property: `context.indexes.allBooks`.
///
/// Every write checks that the entities it names exist (as the batch has
/// left them so far) and throws `DatabaseError` without changing anything
/// when the input is bad.
@dynamicMemberLookup
public struct BatchIndexes<Database: DatabaseType> {
  let context: DatabaseBatchUpdatesContext<Database>

  /// An ordered index, writable.
  public subscript<Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Indexes, IndexKey<OrderedIDIndex<Entity>>>
  ) -> OrderedIDIndexEditor<Database, Entity> {
    OrderedIDIndexEditor(context: context, name: indexName(of: keyPath))
  }

  /// A hash index, writable.
  public subscript<Key, Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Indexes, IndexKey<HashIndex<Key, Entity>>>
  ) -> HashIndexEditor<Database, Key, Entity> {
    HashIndexEditor(context: context, name: indexName(of: keyPath))
  }

  /// A group-by index, writable.
  public subscript<Group, Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Indexes, IndexKey<GroupByIndex<Group, Entity>>>
  ) -> GroupByIndexEditor<Database, Group, Entity> {
    GroupByIndexEditor(context: context, name: indexName(of: keyPath))
  }

  /// A group-by-entity index, writable.
  public subscript<GroupEntity: EntityType, Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Indexes, IndexKey<GroupByEntityIndex<GroupEntity, Entity>>>
  ) -> GroupByEntityIndexEditor<Database, GroupEntity, Entity> {
    GroupByEntityIndexEditor(context: context, name: indexName(of: keyPath))
  }
}

/// An `OrderedIDIndex` inside a batch.
public struct OrderedIDIndexEditor<Database: DatabaseType, Entity: EntityType> {
  let context: DatabaseBatchUpdatesContext<Database>
  let name: String

  /// The index as the batch has left it so far.
  public var index: OrderedIDIndex<Entity> { context.readIndex(name, as: OrderedIDIndex<Entity>.self) }

  /// Appends `id`.
  ///
  /// - Parameter id: An existing entity not yet in the index.
  /// - Throws: `DatabaseError.entityNotFound` or `.duplicateIndexEntry`.
  /// - Complexity: Amortized O(1) (O(n) when the index is shared with an earlier state).
  public func append(_ id: Entity.EntityID) throws(DatabaseError) {
    try insert(id, at: nil)
  }

  /// Appends `ids` in order, all or none.
  ///
  /// - Parameter ids: Existing entities, none yet in the index, no ID twice.
  /// - Throws: `DatabaseError.entityNotFound` or `.duplicateIndexEntry`; the
  ///   index is then unchanged.
  /// - Complexity: O(k) for k IDs (plus O(n) when the index is shared with
  ///   an earlier state).
  public func append<IDs: Sequence<Entity.EntityID>>(contentsOf ids: IDs) throws(DatabaseError) {
    let ids = Array(ids)
    for id in ids { try context.requireEntity(id) }
    try context.writeIndex(name, as: OrderedIDIndex<Entity>.self) { (index) throws(DatabaseError) in
      var seen = Set<Entity.EntityID>()
      for id in ids where index.members.contains(id) || !seen.insert(id).inserted {
        throw .duplicateIndexEntry(index: name, entity: "\(id)")
      }
      index.ids.append(contentsOf: ids)
      index.members.formUnion(ids)
    }
  }

  /// Inserts `id` at `position`.
  ///
  /// - Parameters:
  ///   - id: An existing entity not yet in the index.
  ///   - position: A position in `0...count`.
  /// - Throws: `DatabaseError.entityNotFound`, `.duplicateIndexEntry` or `.positionOutOfRange`.
  /// - Complexity: O(n).
  public func insert(_ id: Entity.EntityID, at position: Int) throws(DatabaseError) {
    try insert(id, at: Optional(position))
  }

  private func insert(_ id: Entity.EntityID, at position: Int?) throws(DatabaseError) {
    try context.requireEntity(id)
    try context.writeIndex(name, as: OrderedIDIndex<Entity>.self) { (index) throws(DatabaseError) in
      guard !index.members.contains(id) else { throw .duplicateIndexEntry(index: name, entity: "\(id)") }
      let position = position ?? index.ids.count
      guard (0...index.ids.count).contains(position) else {
        throw .positionOutOfRange(index: name, position: position, count: index.ids.count)
      }
      index.ids.insert(id, at: position)
      index.members.insert(id)
    }
  }

  /// Moves the ID at `source` to `destination` (its position afterwards).
  ///
  /// - Parameters:
  ///   - source: A position in `0..<count`.
  ///   - destination: A position in `0..<count`.
  /// - Throws: `DatabaseError.positionOutOfRange`.
  /// - Complexity: O(n).
  public func move(from source: Int, to destination: Int) throws(DatabaseError) {
    try context.writeIndex(name, as: OrderedIDIndex<Entity>.self) { (index) throws(DatabaseError) in
      for position in [source, destination] where !index.ids.indices.contains(position) {
        throw .positionOutOfRange(index: name, position: position, count: index.ids.count)
      }
      index.ids.insert(index.ids.remove(at: source), at: destination)
    }
  }

  /// Removes `id` from the index (the entity stays in its table).
  ///
  /// - Parameter id: An ID in the index.
  /// - Throws: `DatabaseError.notInIndex`.
  /// - Complexity: O(n).
  public func remove(_ id: Entity.EntityID) throws(DatabaseError) {
    try context.writeIndex(name, as: OrderedIDIndex<Entity>.self) { (index) throws(DatabaseError) in
      guard index.members.remove(id) != nil else { throw .notInIndex(index: name, entity: "\(id)") }
      index.ids.removeAll { $0 == id }
    }
  }

  /// Removes every ID from the index (the entities stay in their table).
  public func removeAll() {
    _ = try? context.writeIndex(name, as: OrderedIDIndex<Entity>.self) { index in
      index = OrderedIDIndex()
    }
  }
}

/// A `HashIndex` inside a batch.
public struct HashIndexEditor<Database: DatabaseType, Key: Hashable & Sendable & Codable, Entity: EntityType> {
  let context: DatabaseBatchUpdatesContext<Database>
  let name: String

  /// The index as the batch has left it so far.
  public var index: HashIndex<Key, Entity> { context.readIndex(name, as: HashIndex<Key, Entity>.self) }

  /// Points `key` at `id`, replacing what it pointed at.
  ///
  /// - Parameters:
  ///   - id: An existing entity.
  ///   - key: The key.
  /// - Throws: `DatabaseError.entityNotFound`.
  /// - Complexity: O(1) (O(n) when the index is shared with an earlier state).
  public func set(_ id: Entity.EntityID, for key: Key) throws(DatabaseError) {
    try context.requireEntity(id)
    try context.writeIndex(name, as: HashIndex<Key, Entity>.self) { index in
      index.set(id, for: key)
    }
  }

  /// Removes `key`.
  ///
  /// - Parameter key: The key.
  /// - Returns: The ID it pointed at, or `nil` when absent.
  @discardableResult
  public func removeValue(for key: Key) -> Entity.EntityID? {
    guard index[key] != nil else { return nil }
    return try? context.writeIndex(name, as: HashIndex<Key, Entity>.self) { index in
      index.removeValue(for: key)
    }
  }
}

/// A `GroupByIndex` inside a batch.
public struct GroupByIndexEditor<Database: DatabaseType, Group: Hashable & Sendable & Codable, Entity: EntityType> {
  let context: DatabaseBatchUpdatesContext<Database>
  let name: String

  /// The index as the batch has left it so far.
  public var index: GroupByIndex<Group, Entity> { context.readIndex(name, as: GroupByIndex<Group, Entity>.self) }

  /// Appends `id` to `group`.
  ///
  /// - Parameters:
  ///   - id: An existing entity in no group yet.
  ///   - group: The group.
  /// - Throws: `DatabaseError.entityNotFound` or `.duplicateIndexEntry`.
  public func append(_ id: Entity.EntityID, to group: Group) throws(DatabaseError) {
    try context.requireEntity(id)
    try context.writeIndex(name, as: GroupByIndex<Group, Entity>.self) { (index) throws(DatabaseError) in
      try index.storage.insert(id, at: nil, in: group, index: name)
    }
  }

  /// Inserts `id` at `position` in `group`.
  ///
  /// - Parameters:
  ///   - id: An existing entity in no group yet.
  ///   - position: A position in `0...count` of the group.
  ///   - group: The group.
  /// - Throws: `DatabaseError.entityNotFound`, `.duplicateIndexEntry` or `.positionOutOfRange`.
  public func insert(_ id: Entity.EntityID, at position: Int, in group: Group) throws(DatabaseError) {
    try context.requireEntity(id)
    try context.writeIndex(name, as: GroupByIndex<Group, Entity>.self) { (index) throws(DatabaseError) in
      try index.storage.insert(id, at: position, in: group, index: name)
    }
  }

  /// Moves an ID inside `group` from `source` to `destination`.
  ///
  /// - Parameters:
  ///   - group: The group.
  ///   - source: A position in `0..<count` of the group.
  ///   - destination: A position in `0..<count` of the group.
  /// - Throws: `DatabaseError.positionOutOfRange`.
  public func move(in group: Group, from source: Int, to destination: Int) throws(DatabaseError) {
    try context.writeIndex(name, as: GroupByIndex<Group, Entity>.self) { (index) throws(DatabaseError) in
      try index.storage.move(in: group, from: source, to: destination, index: name)
    }
  }

  /// Removes `id` from its group (the entity stays in its table).
  ///
  /// - Parameter id: An ID in the index.
  /// - Throws: `DatabaseError.notInIndex`.
  public func remove(_ id: Entity.EntityID) throws(DatabaseError) {
    try context.writeIndex(name, as: GroupByIndex<Group, Entity>.self) { (index) throws(DatabaseError) in
      guard index.storage.remove(id) else { throw .notInIndex(index: name, entity: "\(id)") }
    }
  }

  /// Removes a whole group (the entities stay in their table).
  ///
  /// - Parameter group: The group; an unknown group does nothing.
  public func removeGroup(_ group: Group) {
    guard !index.ids(in: group).isEmpty else { return }
    _ = try? context.writeIndex(name, as: GroupByIndex<Group, Entity>.self) { index in
      index.storage.removeGroup(group)
    }
  }
}

/// A `GroupByEntityIndex` inside a batch.
public struct GroupByEntityIndexEditor<Database: DatabaseType, GroupEntity: EntityType, Entity: EntityType> {
  let context: DatabaseBatchUpdatesContext<Database>
  let name: String

  /// The index as the batch has left it so far.
  public var index: GroupByEntityIndex<GroupEntity, Entity> {
    context.readIndex(name, as: GroupByEntityIndex<GroupEntity, Entity>.self)
  }

  /// The IDs grouped under `group` as the batch has left them so far.
  ///
  /// - Parameter group: The group entity's ID.
  /// - Returns: The IDs, in order.
  public func ids(in group: GroupEntity.EntityID) -> [Entity.EntityID] {
    index.ids(in: group)
  }

  /// Appends `id` to the group of `group`.
  ///
  /// - Parameters:
  ///   - id: An existing entity in no group yet.
  ///   - group: An existing group entity.
  /// - Throws: `DatabaseError.entityNotFound` (for either) or `.duplicateIndexEntry`.
  public func append(_ id: Entity.EntityID, to group: GroupEntity.EntityID) throws(DatabaseError) {
    try insert(id, at: nil, in: group)
  }

  /// Inserts `id` at `position` in the group of `group`.
  ///
  /// - Parameters:
  ///   - id: An existing entity in no group yet.
  ///   - position: A position in `0...count` of the group.
  ///   - group: An existing group entity.
  /// - Throws: `DatabaseError.entityNotFound`, `.duplicateIndexEntry` or `.positionOutOfRange`.
  public func insert(_ id: Entity.EntityID, at position: Int, in group: GroupEntity.EntityID) throws(DatabaseError) {
    try insert(id, at: Optional(position), in: group)
  }

  private func insert(_ id: Entity.EntityID, at position: Int?, in group: GroupEntity.EntityID) throws(DatabaseError) {
    try context.requireEntity(id)
    try context.requireEntity(group)
    try context.writeIndex(name, as: GroupByEntityIndex<GroupEntity, Entity>.self) { (index) throws(DatabaseError) in
      try index.storage.insert(id, at: position, in: group, index: name)
    }
  }

  /// Moves an ID inside a group from `source` to `destination`.
  ///
  /// - Parameters:
  ///   - group: The group entity's ID.
  ///   - source: A position in `0..<count` of the group.
  ///   - destination: A position in `0..<count` of the group.
  /// - Throws: `DatabaseError.positionOutOfRange`.
  public func move(in group: GroupEntity.EntityID, from source: Int, to destination: Int) throws(DatabaseError) {
    try context.writeIndex(name, as: GroupByEntityIndex<GroupEntity, Entity>.self) { (index) throws(DatabaseError) in
      try index.storage.move(in: group, from: source, to: destination, index: name)
    }
  }

  /// Removes `id` from its group (the entity stays in its table).
  ///
  /// - Parameter id: An ID in the index.
  /// - Throws: `DatabaseError.notInIndex`.
  public func remove(_ id: Entity.EntityID) throws(DatabaseError) {
    try context.writeIndex(name, as: GroupByEntityIndex<GroupEntity, Entity>.self) { (index) throws(DatabaseError) in
      guard index.storage.remove(id) else { throw .notInIndex(index: name, entity: "\(id)") }
    }
  }

  /// Removes a whole group (the entities stay in their table).
  ///
  /// - Parameter group: The group entity's ID; an unknown group does nothing.
  public func removeGroup(_ group: GroupEntity.EntityID) {
    guard !index.ids(in: group).isEmpty else { return }
    _ = try? context.writeIndex(name, as: GroupByEntityIndex<GroupEntity, Entity>.self) { index in
      index.storage.removeGroup(group)
    }
  }
}
