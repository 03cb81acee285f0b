/// One table: its entities in a persistent map, and the version stamps that
/// make change detection O(1).
@usableFromInline
struct EntityTableStorage<Entity: EntityType>: Sendable {
  @usableFromInline var entities = PersistentMap<Entity.EntityID, Entity>()
  /// Changes whenever a batch changes the table; 0 for a never-written table.
  @usableFromInline var version: UInt64 = 0
  /// The version this one was made from by the last batch.
  @usableFromInline var previousVersion: UInt64 = 0
  /// The IDs the last batch inserted, updated or deleted.
  @usableFromInline var touched: Set<Entity.EntityID> = []

  @inlinable
  init() {}

  @inlinable
  static var empty: EntityTableStorage { EntityTableStorage() }
}

/// A table whose entity type is known only at run time.
@usableFromInline
protocol AnyEntityTableStorage: Sendable {
  var version: UInt64 { get }
  var count: Int { get }
  func isContentEqual(to other: (any AnyEntityTableStorage)?) -> Bool
  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws
  func invariantViolations(name: String) -> [String]
}

extension EntityTableStorage: AnyEntityTableStorage {
  @usableFromInline var count: Int { entities.count }

  @usableFromInline
  func isContentEqual(to other: (any AnyEntityTableStorage)?) -> Bool {
    let other = other.map { $0 as! EntityTableStorage<Entity> } ?? .empty
    return version == other.version || entities.contentEquals(other.entities)
  }

  @usableFromInline
  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws {
    try container.encode(entities.map(\.value), forKey: key)
  }

  @usableFromInline
  func invariantViolations(name: String) -> [String] {
    var problems = entities.invariantViolations().map { "table \(name): \($0)" }
    for (id, entity) in entities where entity.entityID != id {
      problems.append("table \(name): \(entity.entityID) stored under \(id)")
    }
    return problems
  }
}
