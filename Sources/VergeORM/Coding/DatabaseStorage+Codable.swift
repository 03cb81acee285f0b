extension DatabaseStorage: Codable {
  private static var tablesKey: DatabaseCodingKey { DatabaseCodingKey("tables") }
  private static var indexesKey: DatabaseCodingKey { DatabaseCodingKey("indexes") }

  /// Encodes every table (as an array of entities ordered by ID, under its
  /// schema property name) and every index (under its property name), in
  /// the order they are declared, so that equal databases encode to equal
  /// bytes.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: The encoder's or an entity's error.
  /// - Complexity: O(n log n) for n entities.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: DatabaseCodingKey.self)
    var tablesContainer = container.nestedContainer(keyedBy: DatabaseCodingKey.self, forKey: Self.tablesKey)
    for (name, key) in Self.tableKeys() {
      guard let table = tables[key.entityType] else { continue }
      try table.encode(into: &tablesContainer, key: DatabaseCodingKey(name))
    }
    var indexesContainer = container.nestedContainer(keyedBy: DatabaseCodingKey.self, forKey: Self.indexesKey)
    for (name, _) in Self.indexKeys() {
      guard let index = indexes[name] else { continue }
      try index.encode(into: &indexesContainer, key: DatabaseCodingKey(name))
    }
  }

  /// Decodes a database and checks it before accepting it: no table or
  /// index outside the declaration, no duplicate IDs, every index entry
  /// pointing at an entity.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DatabaseError.corruptedData` for data that does not describe
  ///   a consistent database, or the decoder's error for malformed input.
  ///   Nothing is loaded half-way.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: DatabaseCodingKey.self)
    let tablesContainer = try container.nestedContainer(keyedBy: DatabaseCodingKey.self, forKey: Self.tablesKey)
    let tableKeys = Self.tableKeys()
    for key in tablesContainer.allKeys where !tableKeys.contains(where: { $0.name == key.stringValue }) {
      throw DatabaseError.corruptedData("table '\(key.stringValue)' is not in the schema")
    }
    for (name, key) in tableKeys {
      let codingKey = DatabaseCodingKey(name)
      guard tablesContainer.contains(codingKey) else { continue }
      let table = try key.decodeTable(from: tablesContainer, key: codingKey)
      if table.count > 0 { tables[key.entityType] = table }
    }
    let indexesContainer = try container.nestedContainer(keyedBy: DatabaseCodingKey.self, forKey: Self.indexesKey)
    let indexKeys = Self.indexKeys()
    for key in indexesContainer.allKeys where !indexKeys.contains(where: { $0.name == key.stringValue }) {
      throw DatabaseError.corruptedData("index '\(key.stringValue)' is not declared")
    }
    let tableSet = TableSet(tables: tables)
    for (name, key) in indexKeys {
      guard let index = try key.decodeIndex(from: indexesContainer, key: DatabaseCodingKey(name)) else { continue }
      let dangling = index.danglingEntries(in: tableSet)
      if let first = dangling.first {
        throw DatabaseError.corruptedData("index '\(name)' points at missing \(first)")
      }
      indexes[name] = index
    }
    version = nextDatabaseVersion()
  }

  static func tableKeys() -> [(name: String, key: any AnyEntityTableKey)] {
    Mirror(reflecting: Schema()).children.compactMap { child in
      guard let name = child.label, let key = child.value as? any AnyEntityTableKey else { return nil }
      return (name, key)
    }
  }

  static func indexKeys() -> [(name: String, key: any AnyIndexKey)] {
    Mirror(reflecting: Indexes()).children.compactMap { child in
      guard let name = child.label, let key = child.value as? any AnyIndexKey else { return nil }
      return (name, key)
    }
  }
}
