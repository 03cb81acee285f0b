import VergeCollections

/// One table: its entities in a persistent map, and the version stamps that
/// make change detection O(1).
@usableFromInline
struct EntityTableStorage<Entity: EntityType>: Sendable {
  @usableFromInline var entities = PersistentMap<Entity.EntityID, Entity>()
  /// Changes whenever a batch changes the table's entities (a batch that
  /// only writes back equal entities keeps the table and its version); 0 for
  /// a never-written, empty table.
  @usableFromInline var version: UInt64 = 0
  /// The version this one was made from by the last batch, whose entities
  /// differ from this one's (equal to `version` for a decoded table, which
  /// was not made from another).
  @usableFromInline var previousVersion: UInt64 = 0
  /// The IDs whose entities the last batch inserted, changed or deleted.
  @usableFromInline var touched: TouchedIDs<Entity.EntityID> = .none

  @inlinable
  init() {}

  @inlinable
  static var empty: EntityTableStorage { EntityTableStorage() }

  /// Whether the two tables hold equal entities.
  ///
  /// Equal versions mean one content (every stamp comes from one global
  /// counter and is given to one table once). A table made from the other by
  /// one batch differs from it, since a batch stamps a table only when its
  /// entities changed. Otherwise the tries are compared, skipping shared
  /// nodes.
  ///
  /// - Complexity: O(1) for copies and for a table and the table one batch
  ///   made from it; otherwise proportional to the nodes they do not share.
  @inlinable
  func isContentEqual(to other: EntityTableStorage) -> Bool {
    if version == other.version { return true }
    if other.previousVersion == version || previousVersion == other.version { return false }
    return entities.contentEquals(other.entities)
  }
}

extension EntityTableStorage {
  /// Encodes the entities as an array, ordered by ID (see `StableOrder`).
  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws {
    let values = entities.map { $0.value }
    let order = try StableOrder.order(of: entities.map { $0.key.raw })
    try container.encode(order.map { values[$0] }, forKey: key)
  }

  func invariantViolations(name: String) -> [String] {
    var problems = entities.invariantViolations().map { "table \(name): \($0)" }
    for (id, entity) in entities where entity.entityID != id {
      problems.append("table \(name): \(entity.entityID) stored under \(id)")
    }
    return problems
  }
}
