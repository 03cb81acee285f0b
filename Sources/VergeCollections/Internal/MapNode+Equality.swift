// Comparing two tries node by node, skipping the nodes they share.
extension MapNode {
  @inlinable
  package func structurallyEquals(_ other: MapNode, shift: UInt64) -> Bool where Value: Equatable {
    if self === other { return true }
    let header = self.fields
    let otherHeader = other.fields
    guard header.dataMap == otherHeader.dataMap, header.nodeMap == otherHeader.nodeMap,
      header.entryCount == otherHeader.entryCount, header.childCount == otherHeader.childCount
    else { return false }
    if shift >= Self.maxShift {
      // Collision buckets hold entries in insertion order.
      return (0..<entryCount).allSatisfy { index in
        let entry = self.entry(at: index)
        return other.collisionIndex(of: entry.key).map { other.entry(at: $0).value == entry.value } ?? false
      }
    }
    for index in 0..<entryCount {
      let a = entry(at: index)
      let b = other.entry(at: index)
      if a.key != b.key || a.value != b.value { return false }
    }
    for index in 0..<childCount where !child(at: index).structurallyEquals(other.child(at: index), shift: shift + Self.levelBits) {
      return false
    }
    return true
  }
}
