extension PersistentMap: Sequence {
  /// Iterates the entries in hash order (unspecified but stable for a value).
  @usableFromInline
  package struct Iterator: IteratorProtocol {
    @usableFromInline package var stack: [(node: MapNode<Key, Value>, entry: Int, child: Int)]

    @inlinable
    package init(root: MapNode<Key, Value>) {
      stack = [(root, 0, 0)]
    }

    @inlinable
    package mutating func next() -> (key: Key, value: Value)? {
      while let top = stack.last {
        if top.entry < top.node.entryCount {
          stack[stack.count - 1].entry += 1
          return top.node.entry(at: top.entry)
        }
        if top.child < top.node.childCount {
          stack[stack.count - 1].child += 1
          stack.append((top.node.child(at: top.child), 0, 0))
          continue
        }
        stack.removeLast()
      }
      return nil
    }
  }

  @inlinable
  package func makeIterator() -> Iterator {
    Iterator(root: root)
  }

  @inlinable
  package var underestimatedCount: Int { count }
}


extension PersistentMap {
  /// Structural problems of the trie, for invariant checks; empty when sound.
  package func invariantViolations() -> [String] {
    var problems: [String] = []
    var counted = 0
    func visit(_ node: MapNode<Key, Value>, shift: UInt64, prefix: UInt64, isRoot: Bool) {
      if !node.entriesAreAligned { problems.append("entries stored off their alignment or apart from the children") }
      if shift >= MapNode<Key, Value>.maxShift {
        if node.entryCount < 2 { problems.append("collision bucket with \(node.entryCount) entries") }
        if node.childCount != 0 { problems.append("collision bucket with \(node.childCount) children") }
        counted += node.entryCount
        return
      }
      if node.dataMap.nonzeroBitCount != node.entryCount { problems.append("dataMap does not match entries") }
      if node.nodeMap.nonzeroBitCount != node.childCount { problems.append("nodeMap does not match children") }
      if node.dataMap & node.nodeMap != 0 { problems.append("a slot is both entry and child") }
      let table = node.fields.slots
      let expected = MapNodeSlots(dataMap: node.dataMap, nodeMap: node.nodeMap)
      if table.bytes != expected.bytes { problems.append("slot table does not match the maps") }
      if UInt64(node.dataMap | node.nodeMap) >> (MapNode<Key, Value>.slotMask + 1) != 0 {
        problems.append("a slot beyond the node's \(MapNode<Key, Value>.slotMask + 1) slots")
      }
      if !isRoot && (node.childCount == 0) && node.entryCount < 2 { problems.append("non-canonical child node") }
      let mask: UInt64 = shift == 0 ? 0 : (1 << shift) - 1
      var entryIndex = 0
      var childIndex = 0
      for slot in 0...Int(MapNode<Key, Value>.slotMask) {
        let bit = UInt32(1) << UInt32(slot)
        if node.dataMap & bit != 0 {
          let hash = PersistentMap.hash(node.key(at: entryIndex))
          if hash & mask != prefix || (hash >> shift) & MapNode<Key, Value>.slotMask != UInt64(slot) {
            problems.append("entry stored under the wrong hash slot")
          }
          entryIndex += 1
          counted += 1
        } else if node.nodeMap & bit != 0, childIndex < node.childCount {
          visit(node.child(at: childIndex), shift: shift + MapNode<Key, Value>.levelBits, prefix: prefix | (UInt64(slot) << shift), isRoot: false)
          childIndex += 1
        }
      }
    }
    visit(root, shift: 0, prefix: 0, isRoot: true)
    if counted != count { problems.append("count \(count) but \(counted) entries stored") }
    return problems
  }
}
