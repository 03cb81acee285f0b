import Foundation

/// A stored value of an older schema version, handed to a migration.
///
/// ```swift
/// let persistence = try store.persist(\.settings, to: url, version: 2) { stored in
///   // Version 1 stored the theme as a Bool.
///   let old = try stored.decode(SettingsV1.self)
///   return Settings(theme: old.isDark ? .dark : .light)
/// }
/// ```
public struct PersistedPayload: Sendable {
  /// The schema version the file was written with.
  public let version: Int
  /// The stored value as JSON, exactly as that version encoded it.
  public let data: Data

  /// Creates a payload.
  ///
  /// - Parameters:
  ///   - version: The schema version the data was written with.
  ///   - data: The stored value as JSON.
  public init(version: Int, data: Data) {
    self.version = version
    self.data = data
  }

  /// Decodes the stored JSON as `type` (the shape that version had).
  ///
  /// - Parameter type: The old shape.
  /// - Returns: The decoded value.
  /// - Throws: `DecodingError` when the data does not have that shape.
  public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try JSONDecoder().decode(type, from: data)
  }
}
