// Nodes are mutated only while uniquely referenced (isKnownUniquelyReferenced in every write); shared nodes are never written, so a list is safe to read from any thread.
extension PersistentList: @unchecked Sendable where Element: Sendable {}
