/// A normalized entity database that lives inside state.
///
/// ```swift
/// struct Database: DatabaseType {
///   struct Schema: EntitySchemaType {
///     let book = Book.EntityTableKey()
///     let author = Author.EntityTableKey()
///   }
///   struct Indexes: IndexesType {
///     let allBooks = IndexKey<OrderedIDIndex<Book>>()
///   }
///   var _backingStorage: BackingStorage = .init()
/// }
///
/// struct RootState: Equatable { var database = Database() }
/// ```
///
/// Read with `entities` and `indexes`; change with `performBatchUpdates`.
/// `Equatable` is cheap: parts a batch did not touch compare in O(1), so
/// `changes.ifChanged(\.database)` costs almost nothing. `Codable` comes
/// with the protocol: a database encodes as its tables and indexes, in a
/// stable order and under public names only, and decoding refuses damaged
/// data (see `encode(to:)`). Test diffs show a database by table, entity ID
/// and field (`DiffRepresentable`).
public protocol DatabaseType: Equatable, Sendable, Codable, DiffRepresentable {
  /// The tables, declared as `EntityTableKey` properties.
  associatedtype Schema: EntitySchemaType
  /// The indexes, declared as `IndexKey` properties.
  associatedtype Indexes: IndexesType

  /// The storage; declare it as `var _backingStorage: BackingStorage = .init()`.
  ///
  /// The leading underscore is not ours to choose: it is the name Verge's
  /// documentation tells users to declare, so database types written from
  /// it compile unchanged. Treat it as storage: read through `entities`,
  /// `indexes` or `db`, and write with `performBatchUpdates`.
  var _backingStorage: DatabaseStorage<Schema, Indexes> { get set }

  /// An empty database: the `init()` Swift makes for a struct whose
  /// stored properties have default values. Decoding starts from it.
  init()

  /// Hooks run inside every batch, after its closure and before it is
  /// applied, that can add work; empty by default.
  static var middlewares: [DatabaseMiddleware<Self>] { get }
}

extension DatabaseType {
  /// The storage type to declare: `var _backingStorage: BackingStorage = .init()`.
  public typealias BackingStorage = DatabaseStorage<Schema, Indexes>

  /// No middlewares.
  public static var middlewares: [DatabaseMiddleware<Self>] { [] }

  /// The tables, by schema property: `database.entities.book`.
  @inlinable
  public var entities: DatabaseEntities<Self> {
    DatabaseEntities(storage: _backingStorage)
  }

  /// The indexes, by property: `database.indexes.allBooks`.
  public var indexes: DatabaseIndexes<Self> {
    DatabaseIndexes(storage: _backingStorage)
  }

  /// The database itself, read-only, for queries written as in Verge's
  /// documentation: `state.database.db.entities.book.find(by: id)`.
  ///
  /// `database.entities` and `database.indexes` are the primary way to
  /// query; `db` is the same database under Verge's name.
  ///
  /// - Complexity: O(1): a copy that shares the storage.
  @inlinable
  public var db: Self { self }
}

/// The tables of a database, read-only; `database.entities.book`.
@dynamicMemberLookup
public struct DatabaseEntities<Database: DatabaseType>: Sendable {
  @usableFromInline let storage: Database.BackingStorage

  @inlinable
  init(storage: Database.BackingStorage) {
    self.storage = storage
  }

  /// The table declared by `keyPath` in the schema.
  ///
  /// - Complexity: O(1).
  @inlinable
  public subscript<Entity: EntityType>(
    dynamicMember keyPath: KeyPath<Database.Schema, EntityTableKey<Entity>>
  ) -> EntityTable<Entity> {
    EntityTable(box: storage.box(Entity.self))
  }

  /// The table of `type`, named by its entity type as Verge's `table(_:)`
  /// does: `database.entities.table(Book.self)`.
  ///
  /// - Parameter type: An entity type the schema declares a table for.
  /// - Returns: The table.
  /// - Complexity: O(1).
  @inlinable
  public func table<Entity: EntityType>(_ type: Entity.Type) -> EntityTable<Entity> {
    EntityTable(box: storage.box(Entity.self))
  }
}

/// The indexes of a database, read-only; `database.indexes.allBooks`.
@dynamicMemberLookup
public struct DatabaseIndexes<Database: DatabaseType>: Sendable {
  let storage: Database.BackingStorage

  /// The index declared by `keyPath`.
  ///
  /// - Complexity: O(1).
  public subscript<Index: DatabaseIndexType>(
    dynamicMember keyPath: KeyPath<Database.Indexes, IndexKey<Index>>
  ) -> Index {
    storage.index(named: indexName(of: keyPath), as: Index.self)
  }
}
