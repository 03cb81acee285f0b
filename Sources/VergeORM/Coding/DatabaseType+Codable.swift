/// A database encodes as its tables and indexes, under their declared
/// names only: an object with `tables` (each table under its schema
/// property's name, as an array of its entities) and `indexes` (each under
/// its property's name).
///
/// Entities are ordered by ID, index entries by key, tables and indexes as
/// declared: encoding equal databases gives equal bytes (with a
/// `JSONEncoder` whose `outputFormatting` has `.sortedKeys`, which the
/// entities' own keys need). Decoding also reads an earlier form of the
/// encoding, which nested the same contents under the storage property's name
/// (`{"_backingStorage":{"indexes":...,"tables":...}}`).
extension DatabaseType {
  /// Encodes the database's tables and indexes.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's or an entity's error.
  /// - Complexity: O(n log n) for n entities.
  public func encode(to encoder: any Encoder) throws {
    try _backingStorage.encode(to: encoder)
  }

  /// Decodes a database, in the current form or in the earlier nested one, and checks it
  /// before accepting it.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DatabaseError.corruptedData` for data that does not describe
  ///   a consistent database, or the decoder's error for malformed input.
  public init(from decoder: any Decoder) throws {
    self.init()
    let container = try decoder.container(keyedBy: DatabaseCodingKey.self)
    let legacyKey = DatabaseCodingKey("_backingStorage")
    if container.contains(legacyKey) {
      _backingStorage = try container.decode(BackingStorage.self, forKey: legacyKey)
    } else {
      _backingStorage = try BackingStorage(from: decoder)
    }
  }
}
