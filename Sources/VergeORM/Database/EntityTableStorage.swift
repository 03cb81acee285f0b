/// One table: its entities in a persistent map, and the version stamps that
/// make change detection O(1).
struct EntityTableStorage<Entity: EntityType>: Sendable {
  var entities = PersistentMap<Entity.EntityID, Entity>()
  /// Changes whenever a batch changes the table; 0 for a never-written table.
  var version: UInt64 = 0
  /// The version this one was made from by the last batch.
  var previousVersion: UInt64 = 0
  /// The IDs the last batch inserted, updated or deleted.
  var touched: Set<Entity.EntityID> = []

  static var empty: EntityTableStorage { EntityTableStorage() }
}

/// A table whose entity type is known only at run time.
protocol AnyEntityTableStorage: Sendable {
  var version: UInt64 { get }
  var count: Int { get }
  func isContentEqual(to other: (any AnyEntityTableStorage)?) -> Bool
  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws
  func invariantViolations(name: String) -> [String]
}

extension EntityTableStorage: AnyEntityTableStorage {
  var count: Int { entities.count }

  func isContentEqual(to other: (any AnyEntityTableStorage)?) -> Bool {
    let other = other.map { $0 as! EntityTableStorage<Entity> } ?? .empty
    return version == other.version || entities.contentEquals(other.entities)
  }

  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws {
    try container.encode(entities.map(\.value), forKey: key)
  }

  func invariantViolations(name: String) -> [String] {
    var problems = entities.invariantViolations().map { "table \(name): \($0)" }
    for (id, entity) in entities where entity.entityID != id {
      problems.append("table \(name): \(entity.entityID) stored under \(id)")
    }
    return problems
  }
}
