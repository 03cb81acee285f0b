/// How a database shows in a test diff (VergeTesting's `StateDiff`): by
/// table, entity ID and field, and by the contents of its indexes — never
/// by its storage or version stamps.
///
/// ```text
/// database.book["b1"].name
///   expected: "A"
///   actual:   "B"
/// database.book["b2"]
///   expected: (absent)
///   actual:   Book(rawID: "b2", name: "C", authorID: Author(a1))
/// database.indexes.booksByAuthor["a1"]
///   expected: ["b1"]
///   actual:   ["b1", "b2"]
/// ```
extension DatabaseType {
  /// One part per table, under its name in the `Schema`, holding the
  /// table's entities by raw ID; then `indexes`, one part per declared
  /// index, holding its contents. Entities are shown by their own fields.
  ///
  /// - Complexity: O(n log n) in the number of entities and index entries.
  public var diffRepresentation: DiffRepresentation {
    var parts: [(name: String, value: Any)] = []
    for child in Mirror(reflecting: Schema()).children {
      guard let name = child.label, let key = child.value as? any DiffTableKey else { continue }
      parts.append((name, key.diffTable(in: _backingStorage)))
    }
    var indexes: [(name: String, value: Any)] = []
    for child in Mirror(reflecting: Indexes()).children {
      guard let name = child.label, let key = child.value as? any DiffIndexKey else { continue }
      indexes.append((name, key.diffIndex(named: name, in: _backingStorage)))
    }
    if !indexes.isEmpty {
      parts.append(("indexes", DiffRepresentation.fields(indexes)))
    }
    return .fields(parts)
  }
}

extension OrderedIDIndex: DiffRepresentable {
  /// The IDs in order, by position.
  public var diffRepresentation: DiffRepresentation {
    .entries(enumerated().map { (key: "\($0.offset)", value: $0.element.raw as Any) })
  }
}

extension HashIndex: DiffRepresentable {
  /// The ID of each key, by key.
  public var diffRepresentation: DiffRepresentation {
    .entries(
      entries.sorted { DiffOrder.isLess($0.key, $1.key) }
        .map { (key: DiffOrder.key($0.key), value: $0.value.raw as Any) })
  }
}

extension GroupByIndex: DiffRepresentable {
  /// The IDs of each group, in order, by group.
  public var diffRepresentation: DiffRepresentation {
    .entries(
      groups.sorted { DiffOrder.isLess($0, $1) }
        .map { group in (key: DiffOrder.key(group), value: ids(in: group).map(\.raw) as Any) })
  }
}

extension GroupByEntityIndex: DiffRepresentable {
  /// The IDs of each group, in order, by the group entity's raw ID.
  public var diffRepresentation: DiffRepresentation {
    .entries(
      groups.sorted { DiffOrder.isLess($0.raw, $1.raw) }
        .map { group in (key: DiffOrder.key(group.raw), value: ids(in: group).map(\.raw) as Any) })
  }
}

/// A schema's table key, able to show its table in a diff.
protocol DiffTableKey {
  func diffTable<Schema, Indexes>(in storage: DatabaseStorage<Schema, Indexes>) -> DiffRepresentation
}

extension EntityTableKey: DiffTableKey {
  func diffTable<Schema, Indexes>(in storage: DatabaseStorage<Schema, Indexes>) -> DiffRepresentation {
    .entries(
      storage.table(Entity.self).entities
        .sorted { DiffOrder.isLess($0.key.raw, $1.key.raw) }
        .map { (key: DiffOrder.key($0.key.raw), value: $0.value as Any) })
  }
}

/// A declared index's key, able to show the index in a diff.
protocol DiffIndexKey {
  func diffIndex<Schema, Indexes>(named name: String, in storage: DatabaseStorage<Schema, Indexes>) -> Any
}

extension IndexKey: DiffIndexKey {
  func diffIndex<Schema, Indexes>(named name: String, in storage: DatabaseStorage<Schema, Indexes>) -> Any {
    storage.index(named: name, as: Index.self)
  }
}

/// Keys of a diff: written as a test would write them, in a stable order.
enum DiffOrder {
  /// `"b1"` for a string, `3` for a number.
  static func key(_ value: Any) -> String {
    if let text = value as? String { return text.debugDescription }
    return "\(value)"
  }

  /// By value when both are comparable and of one type, otherwise by text.
  static func isLess(_ lhs: Any, _ rhs: Any) -> Bool {
    if let lhs = lhs as? any Comparable, let result = compare(lhs, rhs) { return result }
    return key(lhs) < key(rhs)
  }

  private static func compare<Value: Comparable>(_ lhs: Value, _ rhs: Any) -> Bool? {
    (rhs as? Value).map { lhs < $0 }
  }
}
