/// Declares a table of `Entity` in a database schema.
///
/// ```swift
/// struct Schema: EntitySchemaType {
///   let book = Book.EntityTableKey()
///   let author = Author.EntityTableKey()
/// }
/// ```
///
/// A schema holds at most one table per entity type; the property name is the
/// table's name in the encoded database.
public struct EntityTableKey<Entity: EntityType>: Sendable {
  /// Creates the key.
  public init() {}
}

/// A table key whose entity type is known only at run time.
protocol AnyEntityTableKey: Sendable {
  var entityType: ObjectIdentifier { get }
  func decodeTable(
    from container: KeyedDecodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey
  ) throws -> AnyEntityTableBox
}

extension EntityTableKey: AnyEntityTableKey {
  var entityType: ObjectIdentifier { ObjectIdentifier(Entity.self) }

  func decodeTable(
    from container: KeyedDecodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey
  ) throws -> AnyEntityTableBox {
    let entities = try container.decode([Entity].self, forKey: key)
    var table = EntityTableStorage<Entity>()
    for entity in entities {
      guard table.entities.updateValue(entity, forKey: entity.entityID) == nil else {
        throw DatabaseError.corruptedData("table '\(key.stringValue)' holds \(entity.entityID) twice")
      }
    }
    table.version = nextDatabaseVersion()
    // Made from no other table: no tracker or comparison may take it for a
    // successor of a version it saw.
    table.previousVersion = table.version
    return EntityTableBox(table)
  }
}

/// A string coding key for table and index names.
@usableFromInline
struct DatabaseCodingKey: CodingKey {
  @usableFromInline let stringValue: String
  @usableFromInline var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  @usableFromInline init?(stringValue: String) { self.stringValue = stringValue }
  @usableFromInline init?(intValue: Int) { nil }
}
