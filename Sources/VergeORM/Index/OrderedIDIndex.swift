/// An index of entity IDs in an order you choose: a list of books, a
/// timeline of posts.
///
/// ```swift
/// try context.indexes.allBooks.append(book.entityID)
/// let books = database.entities.book.find(in: database.indexes.allBooks)
/// ```
///
/// Each ID appears at most once and always names an existing entity.
public struct OrderedIDIndex<Entity: EntityType>: DatabaseIndexType, RandomAccessCollection {
  /// The IDs in order.
  public internal(set) var ids: [Entity.EntityID] = []
  var members: Set<Entity.EntityID> = []
  var version: UInt64 = 0

  /// An empty index.
  public init() {}

  /// The first position.
  public var startIndex: Int { ids.startIndex }
  /// The position after the last.
  public var endIndex: Int { ids.endIndex }

  /// The ID at `position`.
  ///
  /// - Parameter position: A valid position.
  public subscript(position: Int) -> Entity.EntityID { ids[position] }

  /// Whether the index holds `id`.
  ///
  /// - Parameter id: The ID to look for.
  /// - Returns: `true` when present.
  /// - Complexity: O(1).
  public func contains(_ id: Entity.EntityID) -> Bool { members.contains(id) }

  /// Two indexes are equal when they hold the same IDs in the same order.
  ///
  /// - Complexity: O(1) when neither changed since they were copied;
  ///   otherwise O(n).
  public static func == (lhs: OrderedIDIndex, rhs: OrderedIDIndex) -> Bool {
    (lhs.version == rhs.version && lhs.ids.count == rhs.ids.count) || lhs.ids == rhs.ids
  }

  /// Decodes the IDs; refuses duplicates.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DatabaseError.corruptedData` when an ID appears twice.
  public init(from decoder: any Decoder) throws {
    ids = try decoder.singleValueContainer().decode([Entity.EntityID].self)
    members = Set(ids)
    guard members.count == ids.count else {
      throw DatabaseError.corruptedData("an ordered index of \(Entity.self) holds an ID twice")
    }
  }

  /// Encodes the IDs in order.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's error.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(ids)
  }
}

extension OrderedIDIndex: AnyIndexStorage {
  func references(_ entityType: ObjectIdentifier) -> Bool {
    entityType == ObjectIdentifier(Entity.self)
  }

  mutating func removeEntities(_ ids: any Sendable) -> Bool {
    guard let ids = ids as? Set<Entity.EntityID>, !members.isDisjoint(with: ids) else { return false }
    members.subtract(ids)
    self.ids.removeAll { ids.contains($0) }
    return true
  }

  func danglingEntries(in tables: TableSet) -> [String] {
    let table = tables.table(Entity.self)
    return ids.filter { table.entities[$0] == nil }.map { "\($0)" }
  }

  func invariantViolations() -> [String] {
    var problems: [String] = []
    if Set(ids).count != ids.count { problems.append("duplicate IDs") }
    if Set(ids) != members { problems.append("membership set out of sync") }
    return problems
  }
}
