extension DatabaseType {
  /// Every broken invariant of the database, described; empty when sound.
  ///
  /// Checks the tries of every table, that each entity is stored under its
  /// own ID, that each table belongs to the schema, that every index is
  /// internally consistent and that every index entry points at an entity.
  ///
  /// - Returns: The problems found.
  /// - Complexity: O(total size of the database).
  package func invariantViolations() -> [String] {
    let storage = _backingStorage
    var problems: [String] = []
    let tableKeys = BackingStorage.tableKeys()
    for (type, table) in storage.tables {
      guard let name = tableKeys.first(where: { $0.key.entityType == type })?.name else {
        problems.append("a table is not in the schema")
        continue
      }
      problems += table.invariantViolations(name: name)
    }
    let declared = Set(BackingStorage.indexKeys().map(\.name))
    let tables = TableSet(tables: storage.tables)
    for (name, index) in storage.indexes {
      if !declared.contains(name) { problems.append("index \(name) is not declared") }
      problems += index.invariantViolations().map { "index \(name): \($0)" }
      problems += index.danglingEntries(in: tables).map { "index \(name) points at missing \($0)" }
    }
    return problems
  }

  /// Traps with a description when an invariant is broken; for tests and
  /// debugging.
  ///
  /// - Complexity: O(total size of the database).
  package func checkInvariants() {
    let problems = invariantViolations()
    if !problems.isEmpty {
      fatalError("VergeORM invariants broken: \(problems)")
    }
  }
}
