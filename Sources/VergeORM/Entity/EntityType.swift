/// A record kept in a VergeORM table: a value with a stable, typed identity.
///
/// ```swift
/// struct Author: EntityType {
///   typealias EntityIDRawType = String
///   var entityID: EntityID { .init(rawID) }
///   let rawID: String
///   var name: String = ""
/// }
/// ```
///
/// `Equatable`, `Sendable` and `Codable` are synthesised for a struct whose
/// stored properties have them. The database compares entities with `==` to
/// decide whether an update changed anything.
public protocol EntityType: Equatable, Sendable, Codable {
  /// The raw identifier type (`String`, `Int`, `UUID`, ...).
  associatedtype EntityIDRawType: Hashable & Sendable & Codable

  /// The identifier type of this entity: `Book.EntityID` cannot be passed
  /// where an `Author.EntityID` is expected.
  typealias EntityID = EntityIdentifier<Self>

  /// The entity's identity; it must not change over the entity's life.
  var entityID: EntityID { get }
}

extension EntityType {
  /// The key that declares a table of this entity in a schema:
  /// `let book = Book.EntityTableKey()`.
  public typealias EntityTableKey = VergeORM.EntityTableKey<Self>
}
