/// The identifier of one entity of type `Entity`.
///
/// The entity type is part of the identifier's type, so IDs of different
/// entity types cannot be mixed up even when their raw values are both
/// strings. Spell it `Book.EntityID`.
///
/// ```swift
/// let id = Book.EntityID("42")
/// let book = database.entities.book.find(by: id)
/// ```
///
/// It encodes as its raw value.
public struct EntityIdentifier<Entity: EntityType>: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The raw identifier.
  public let raw: Entity.EntityIDRawType

  /// Creates an identifier from its raw value.
  ///
  /// - Parameter raw: The raw identifier.
  public init(_ raw: Entity.EntityIDRawType) {
    self.raw = raw
  }

  /// Decodes the raw value.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: The decoder's error when the raw value is missing or malformed.
  public init(from decoder: any Decoder) throws {
    raw = try decoder.singleValueContainer().decode(Entity.EntityIDRawType.self)
  }

  /// Encodes the raw value.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's error.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(raw)
  }

  /// The entity type, qualified by its module, and the raw value, as Verge
  /// prints an identifier: `<MyApp.Book>(42)`.
  ///
  /// Interpolation and `print` write the shorter `Book(42)` (see
  /// `write(to:)`), which is how error messages and test diffs name an
  /// entity.
  public var description: String {
    "<\(String(reflecting: Entity.self))>(\(raw))"
  }
}

extension EntityIdentifier: TextOutputStreamable {
  /// Writes the entity type and the raw value, `Book(42)`: what
  /// `"\(id)"`, `String(describing:)` and `print` show.
  ///
  /// - Parameter target: The stream to write to.
  public func write<Target: TextOutputStream>(to target: inout Target) {
    target.write("\(Entity.self)(\(raw))")
  }
}
