// The box is written only through a uniquely referenced edge (copy on write), so a shared box is never mutated.
extension ReferenceEdge.Box: @unchecked Sendable where Value: Sendable {}
