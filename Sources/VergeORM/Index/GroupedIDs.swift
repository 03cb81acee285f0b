/// Groups of ordered IDs, each ID in at most one group, no empty group:
/// the storage shared by `GroupByIndex` and `GroupByEntityIndex`.
struct GroupedIDs<Group: Hashable & Sendable & Codable, ID: Hashable & Sendable & Codable>: Sendable, Equatable {
  var groups: [Group: [ID]] = [:]
  var groupOfID: [ID: Group] = [:]

  init() {}

  init(groups: [Group: [ID]]) throws(DatabaseError) {
    self.groups = groups
    for (group, ids) in groups {
      if ids.isEmpty { throw .corruptedData("a group-by index holds an empty group") }
      for id in ids {
        guard groupOfID.updateValue(group, forKey: id) == nil else {
          throw .corruptedData("a group-by index holds \(id) twice")
        }
      }
    }
  }

  static func == (lhs: GroupedIDs, rhs: GroupedIDs) -> Bool { lhs.groups == rhs.groups }

  func ids(in group: Group) -> [ID] { groups[group] ?? [] }

  mutating func insert(_ id: ID, at position: Int?, in group: Group, index: String) throws(DatabaseError) {
    if groupOfID[id] != nil {
      throw .duplicateIndexEntry(index: index, entity: "\(id)")
    }
    let count = groups[group]?.count ?? 0
    let position = position ?? count
    guard (0...count).contains(position) else {
      throw .positionOutOfRange(index: index, position: position, count: count)
    }
    groups[group, default: []].insert(id, at: position)
    groupOfID[id] = group
  }

  mutating func move(in group: Group, from source: Int, to destination: Int, index: String) throws(DatabaseError) {
    let count = groups[group]?.count ?? 0
    for position in [source, destination] where !(0..<count).contains(position) {
      throw .positionOutOfRange(index: index, position: position, count: count)
    }
    let id = groups[group]!.remove(at: source)
    groups[group]!.insert(id, at: destination)
  }

  @discardableResult
  mutating func remove(_ id: ID) -> Bool {
    guard let group = groupOfID.removeValue(forKey: id) else { return false }
    groups[group]!.removeAll { $0 == id }
    if groups[group]!.isEmpty { groups[group] = nil }
    return true
  }

  @discardableResult
  mutating func removeGroup(_ group: Group) -> Bool {
    guard let ids = groups.removeValue(forKey: group) else { return false }
    for id in ids { groupOfID[id] = nil }
    return true
  }

  func invariantViolations() -> [String] {
    var problems: [String] = []
    var seen: [ID: Group] = [:]
    for (group, ids) in groups {
      if ids.isEmpty { problems.append("empty group \(group)") }
      for id in ids where seen.updateValue(group, forKey: id) != nil {
        problems.append("\(id) in two places")
      }
    }
    if seen != groupOfID { problems.append("reverse map out of sync") }
    return problems
  }
}

/// An index from a group you choose to the ordered IDs in it: books by genre,
/// tasks by status.
///
/// ```swift
/// try context.indexes.booksByGenre.append(book.entityID, to: "poetry")
/// let poetry = database.indexes.booksByGenre.ids(in: "poetry")
/// ```
///
/// Each ID is in at most one group; a group that becomes empty disappears.
public struct GroupByIndex<Group: Hashable & Sendable & Codable, Entity: EntityType>: DatabaseIndexType {
  var storage = GroupedIDs<Group, Entity.EntityID>()
  var version: UInt64 = 0

  /// An empty index.
  public init() {}

  /// The IDs in `group`, in order; empty for an unknown group.
  ///
  /// - Parameter group: The group.
  /// - Returns: The IDs.
  /// - Complexity: O(1).
  public func ids(in group: Group) -> [Entity.EntityID] { storage.ids(in: group) }

  /// The group holding `id`, if any.
  ///
  /// - Parameter id: The entity's ID.
  /// - Returns: Its group.
  public func group(of id: Entity.EntityID) -> Group? { storage.groupOfID[id] }

  /// The groups that hold at least one ID.
  public var groups: Dictionary<Group, [Entity.EntityID]>.Keys { storage.groups.keys }

  /// Two indexes are equal when they hold the same groups in the same order.
  ///
  /// - Complexity: O(1) when neither changed since they were copied;
  ///   otherwise O(n).
  public static func == (lhs: GroupByIndex, rhs: GroupByIndex) -> Bool {
    lhs.version == rhs.version || lhs.storage == rhs.storage
  }

  /// Decodes the groups; refuses an ID in two places and empty groups.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DatabaseError.corruptedData` for inconsistent groups.
  public init(from decoder: any Decoder) throws {
    storage = try GroupedIDs(groups: decoder.singleValueContainer().decode([Group: [Entity.EntityID]].self))
  }

  /// Encodes the groups as a `Dictionary` encodes itself, ordered by
  /// group, so that equal indexes encode to equal bytes.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's error.
  /// - Complexity: O(g log g + n) for g groups of n IDs.
  public func encode(to encoder: any Encoder) throws {
    try StableOrder.encode(storage.groups, sortedBy: { $0 }, to: encoder)
  }
}

extension GroupByIndex: AnyIndexStorage {
  func references(_ entityType: ObjectIdentifier) -> Bool {
    entityType == ObjectIdentifier(Entity.self)
  }

  mutating func removeEntities(_ ids: any Sendable) -> Bool {
    guard let ids = ids as? Set<Entity.EntityID> else { return false }
    var changed = false
    for id in ids where storage.remove(id) { changed = true }
    return changed
  }

  func danglingEntries(in tables: TableSet) -> [String] {
    let table = tables.table(Entity.self)
    return storage.groupOfID.keys.filter { table.entities[$0] == nil }.map { "\($0)" }
  }

  func invariantViolations() -> [String] { storage.invariantViolations() }
}

/// An index from another entity's ID to the ordered IDs that belong to it:
/// books by author, comments by post.
///
/// ```swift
/// try context.indexes.booksByAuthor.append(book.entityID, to: book.authorID)
/// let books = database.indexes.booksByAuthor.ids(in: authorID)
/// ```
///
/// The group entity must exist when an ID is added to its group. Deleting the
/// group entity removes its group at the end of the batch (after the
/// middlewares, so a middleware can still read it to delete the members),
/// also when the same batch inserted it.
public struct GroupByEntityIndex<GroupEntity: EntityType, Entity: EntityType>: DatabaseIndexType {
  var storage = GroupedIDs<GroupEntity.EntityID, Entity.EntityID>()
  var version: UInt64 = 0

  /// An empty index.
  public init() {}

  /// The IDs grouped under `group`, in order; empty for an unknown group.
  ///
  /// - Parameter group: The group entity's ID.
  /// - Returns: The IDs.
  /// - Complexity: O(1).
  public func ids(in group: GroupEntity.EntityID) -> [Entity.EntityID] { storage.ids(in: group) }

  /// The group holding `id`, if any.
  ///
  /// - Parameter id: The entity's ID.
  /// - Returns: The group entity's ID.
  public func group(of id: Entity.EntityID) -> GroupEntity.EntityID? { storage.groupOfID[id] }

  /// The group entities that hold at least one ID.
  public var groups: Dictionary<GroupEntity.EntityID, [Entity.EntityID]>.Keys { storage.groups.keys }

  /// Two indexes are equal when they hold the same groups in the same order.
  ///
  /// - Complexity: O(1) when neither changed since they were copied;
  ///   otherwise O(n).
  public static func == (lhs: GroupByEntityIndex, rhs: GroupByEntityIndex) -> Bool {
    lhs.version == rhs.version || lhs.storage == rhs.storage
  }

  /// Decodes the groups; refuses an ID in two places and empty groups.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DatabaseError.corruptedData` for inconsistent groups.
  public init(from decoder: any Decoder) throws {
    storage = try GroupedIDs(
      groups: decoder.singleValueContainer().decode([GroupEntity.EntityID: [Entity.EntityID]].self))
  }

  /// Encodes the groups as a `Dictionary` encodes itself, ordered by the
  /// group entities' IDs, so that equal indexes encode to equal bytes.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's error.
  /// - Complexity: O(g log g + n) for g groups of n IDs.
  public func encode(to encoder: any Encoder) throws {
    try StableOrder.encode(storage.groups, sortedBy: { $0.raw }, to: encoder)
  }
}

extension GroupByEntityIndex: AnyIndexStorage {
  func references(_ entityType: ObjectIdentifier) -> Bool {
    entityType == ObjectIdentifier(Entity.self) || entityType == ObjectIdentifier(GroupEntity.self)
  }

  mutating func removeEntities(_ ids: any Sendable) -> Bool {
    guard let ids = ids as? Set<Entity.EntityID> else { return false }
    var changed = false
    for id in ids where storage.remove(id) { changed = true }
    return changed
  }

  mutating func removeGroups(keyedBy ids: any Sendable) -> Bool {
    guard let ids = ids as? Set<GroupEntity.EntityID> else { return false }
    var changed = false
    for id in ids where storage.removeGroup(id) { changed = true }
    return changed
  }

  func danglingEntries(in tables: TableSet) -> [String] {
    let members = tables.table(Entity.self)
    let groups = tables.table(GroupEntity.self)
    return storage.groupOfID.keys.filter { members.entities[$0] == nil }.map { "\($0)" }
      + storage.groups.keys.filter { groups.entities[$0] == nil }.map { "group \($0)" }
  }

  func invariantViolations() -> [String] { storage.invariantViolations() }
}
