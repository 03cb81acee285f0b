/// A table whose entity type is known only at run time: what a database
/// keeps per entity type.
///
/// A class rather than an existential of `EntityTableStorage`, so that a
/// read that knows its entity type (every `find(by:)`) gets its table with
/// a reference load and an unchecked downcast instead of a dynamic cast and
/// a copy out of an existential box. Boxes are immutable: a batch that
/// writes a table stores a new box.
@usableFromInline
class AnyEntityTableBox {
  @usableFromInline
  init() {}

  /// The number of entities.
  var count: Int { fatalError("AnyEntityTableBox is abstract") }

  /// Whether the two tables hold equal entities; `nil` is the empty table.
  func isContentEqual(to other: AnyEntityTableBox?) -> Bool {
    fatalError("AnyEntityTableBox is abstract")
  }

  /// Encodes the entities as an array under `key`.
  func encode(into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey) throws {
    fatalError("AnyEntityTableBox is abstract")
  }

  /// The broken invariants of the table, described with its `name`.
  func invariantViolations(name: String) -> [String] {
    fatalError("AnyEntityTableBox is abstract")
  }
}

/// The box of a table of `Entity`.
@usableFromInline
final class EntityTableBox<Entity: EntityType>: AnyEntityTableBox {
  @usableFromInline let table: EntityTableStorage<Entity>

  @inlinable
  init(_ table: EntityTableStorage<Entity>) {
    self.table = table
  }

  override var count: Int { table.entities.count }

  override func isContentEqual(to other: AnyEntityTableBox?) -> Bool {
    table.isContentEqual(to: other?.table(Entity.self) ?? .empty)
  }

  override func encode(
    into container: inout KeyedEncodingContainer<DatabaseCodingKey>, key: DatabaseCodingKey
  ) throws {
    try table.encode(into: &container, key: key)
  }

  override func invariantViolations(name: String) -> [String] {
    table.invariantViolations(name: name)
  }
}

extension AnyEntityTableBox {
  /// The table, for its entity type: the database keys each box by the
  /// `ObjectIdentifier` of its entity type, so the type is known to match.
  @inlinable
  func table<Entity: EntityType>(_ type: Entity.Type) -> EntityTableStorage<Entity> {
    unsafeDowncast(self, to: EntityTableBox<Entity>.self).table
  }
}
