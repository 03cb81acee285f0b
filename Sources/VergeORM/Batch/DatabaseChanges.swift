/// What a batch inserted, updated and deleted, per table:
/// `changes.book.inserted`.
///
/// Changes are net: an entity inserted and then deleted in one batch is in no
/// set; one deleted and inserted again is updated.
@dynamicMemberLookup
public struct DatabaseChanges<Database: DatabaseType>: Sendable {
  /// The written IDs per table; the sets are made when a table's changes are
  /// read.
  @usableFromInline let tables: [ObjectIdentifier: any AnyTableTouches]

  @usableFromInline
  init(tables: [ObjectIdentifier: any AnyTableTouches]) {
    self.tables = tables
  }

  /// The changes of the table declared by `keyPath` in the schema.
  ///
  /// - Complexity: O(k) for k IDs the batch wrote in the table.
  @inlinable
  public subscript<Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Schema, EntityTableKey<Entity>>
  ) -> TableChanges<Entity> {
    tables[ObjectIdentifier(Entity.self)].map { ($0 as! TableTouches<Entity>).tableChanges } ?? TableChanges()
  }

  /// Whether the batch inserted, updated and deleted nothing (net).
  public var isEmpty: Bool { !tables.values.contains { $0.hasNetChanges } }
}

/// What a batch did to one table.
public struct TableChanges<Entity: EntityType>: Sendable, Equatable {
  /// IDs that did not exist before the batch and do after it.
  public internal(set) var inserted: Set<Entity.EntityID> = []
  /// IDs that existed before and after the batch and were written by it
  /// (also when the entity written back is equal to the one before).
  public internal(set) var updated: Set<Entity.EntityID> = []
  /// IDs that existed before the batch and do not after it.
  public internal(set) var deleted: Set<Entity.EntityID> = []

  /// No changes.
  @inlinable
  public init() {}

  /// Whether nothing changed.
  public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// The result of `performBatchUpdates`: what the closure returned and what
/// the batch changed.
public struct BatchUpdateResult<Database: DatabaseType, Output> {
  @usableFromInline
  init(output: Output, changes: DatabaseChanges<Database>) {
    self.output = output
    self.changes = changes
  }

  /// What the batch closure returned.
  public let output: Output
  /// What the batch inserted, updated and deleted, per table.
  public let changes: DatabaseChanges<Database>
}

extension BatchUpdateResult: Sendable where Output: Sendable {}
