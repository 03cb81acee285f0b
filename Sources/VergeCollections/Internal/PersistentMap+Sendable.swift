// Nodes (ManagedBuffer subclasses, never Sendable themselves) are mutated only while uniquely referenced (checked with isKnownUniquelyReferenced by the map's mutating methods); shared nodes are never written, so a map is safe to read from any thread.
extension PersistentMap: @unchecked Sendable where Key: Sendable, Value: Sendable {}
