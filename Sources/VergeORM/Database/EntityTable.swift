/// One table of a database, read-only: `database.entities.book`.
///
/// ```swift
/// let book = database.entities.book.find(by: id)
/// let shelf = database.entities.book.find(in: database.indexes.allBooks)
/// for book in database.entities.book { ... }
/// ```
///
/// Iteration and `all()` follow an unspecified but stable order; use an
/// `OrderedIDIndex` for an order of your own.
public struct EntityTable<Entity: EntityType>: Sequence, Sendable, Equatable {
  /// The database's box of the table, held rather than copied out: a read
  /// retains one object. `nil` for a table the database does not hold.
  @usableFromInline let box: EntityTableBox<Entity>?

  @inlinable
  init(box: EntityTableBox<Entity>?) {
    self.box = box
  }

  @inlinable
  var storage: EntityTableStorage<Entity> { box?.table ?? .empty }

  /// The entity with `id`.
  ///
  /// - Parameter id: The entity's ID.
  /// - Returns: The entity, or `nil` when there is none.
  /// - Complexity: O(log₁₆ n), effectively O(1).
  @inlinable
  public func find(by id: Entity.EntityID) -> Entity? {
    guard let box else { return nil }
    return box.table.entities[id]
  }

  /// The entities with `ids`, in the order asked, skipping missing ones.
  ///
  /// - Parameter ids: The IDs, for example an `OrderedIDIndex`.
  /// - Returns: The entities found.
  /// - Complexity: O(k log₁₆ n) for k IDs.
  @inlinable
  public func find<IDs: Sequence<EntityIdentifier<Entity>>>(in ids: IDs) -> [Entity] {
    ids.compactMap { storage.entities[$0] }
  }

  /// Every entity.
  ///
  /// - Returns: The entities, in the table's order.
  /// - Complexity: O(n).
  @inlinable
  public func all() -> [Entity] {
    storage.entities.map { $0.value }
  }

  /// Whether an entity has `id`.
  ///
  /// - Parameter id: The ID.
  /// - Returns: `true` when present.
  @inlinable
  public func contains(_ id: Entity.EntityID) -> Bool {
    storage.entities[id] != nil
  }

  /// The number of entities.
  @inlinable
  public var count: Int { storage.entities.count }

  /// Whether the table is empty.
  @inlinable
  public var isEmpty: Bool { storage.entities.count == 0 }

  /// Iterates the entities.
  public func makeIterator() -> some IteratorProtocol<Entity> {
    var base = storage.entities.makeIterator()
    return AnyIterator { base.next()?.value }
  }

  /// The number of entities.
  public var underestimatedCount: Int { count }

  /// Two tables are equal when they hold equal entities.
  ///
  /// - Complexity: O(1) for a table no batch changed since the copy, and
  ///   for a table and the one a batch made from it; otherwise proportional
  ///   to the parts that differ.
  @inlinable
  public static func == (lhs: EntityTable, rhs: EntityTable) -> Bool {
    lhs.storage.isContentEqual(to: rhs.storage)
  }
}
