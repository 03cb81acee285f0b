// Nodes are mutated only while uniquely referenced (checked with isKnownUniquelyReferenced by the owning map's mutating methods); shared nodes are never written, so they are safe to read from any thread.
extension MapNode: @unchecked Sendable where Key: Sendable, Value: Sendable {}
