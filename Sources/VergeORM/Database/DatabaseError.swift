/// Why a database operation was refused. The operation changed nothing.
public enum DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No entity has this ID (described as `Type(raw)`).
  case entityNotFound(String)
  /// An update closure changed the entity's ID, which must stay stable.
  case entityIDChanged(from: String, to: String)
  /// The entity is already in this index (ordered indexes hold each ID once).
  case duplicateIndexEntry(index: String, entity: String)
  /// The entity is not in this index.
  case notInIndex(index: String, entity: String)
  /// A position outside `0...count` (or `0..<count` for moves) of an ordered index.
  case positionOutOfRange(index: String, position: Int, count: Int)
  /// Encoded data that does not describe a consistent database.
  case corruptedData(String)

  /// A sentence saying what went wrong.
  public var description: String {
    switch self {
    case .entityNotFound(let id):
      "No entity \(id) in the database."
    case .entityIDChanged(let from, let to):
      "An update changed the entity ID from \(from) to \(to); IDs must not change."
    case .duplicateIndexEntry(let index, let entity):
      "\(entity) is already in index '\(index)'."
    case .notInIndex(let index, let entity):
      "\(entity) is not in index '\(index)'."
    case .positionOutOfRange(let index, let position, let count):
      "Position \(position) is out of range for index '\(index)' holding \(count) IDs."
    case .corruptedData(let reason):
      "The encoded database is damaged: \(reason)."
    }
  }
}
