// The changes a write makes to one node: a new node with an entry added,
// removed or swapped for a child, or the same node changed in place when it
// is uniquely referenced and its storage allows.
extension MapNode {
  /// This node with `entry` added at entry position `index`.
  @inlinable
  package func inserting(_ entry: Entry, at index: Int, dataMap newDataMap: UInt32) -> MapNode {
    let old = fields
    let entryCount = Int(old.entryCount)
    let childCount = Int(old.childCount)
    // A collision bucket (no slots) keeps its empty table.
    let added = newDataMap ^ old.dataMap
    let slots = added == 0 ? old.slots : old.slots.addingEntry(at: added.trailingZeroBitCount, index: index)
    let header = MapNodeHeader(
      dataMap: newDataMap, nodeMap: old.nodeMap, entryCount: entryCount + 1, childCount: childCount, slots: slots)
    return withParts { entries, children in
      Self.make(header: header) { newEntries, newChildren in
        Self.copy(index, from: entries, to: newEntries)
        (newEntries + index).initialize(to: entry)
        Self.copy(entryCount - index, from: entries + index, to: newEntries + index + 1)
        Self.copy(childCount, from: children, to: newChildren)
      }
    }
  }

  /// Adds `entry` at entry position `index` to this uniquely referenced
  /// node in place, or returns `false` when its storage has no room for it.
  @inlinable
  package func insertInPlace(_ entry: Entry, at index: Int, dataMap newDataMap: UInt32) -> Bool {
    let old = fields
    let entryCount = Int(old.entryCount)
    let childCount = Int(old.childCount)
    let needed = Self.wordCapacity(entryCount: entryCount + 1, childCount: childCount)
      &- Self.wordCapacity(entryCount: entryCount, childCount: childCount)
    guard Int(old.spareWords) >= needed else { return false }
    let added = newDataMap ^ old.dataMap
    let slots = added == 0 ? old.slots : old.slots.addingEntry(at: added.trailingZeroBitCount, index: index)
    withParts { entries, _ in
      (entries + index + 1).moveInitialize(from: entries + index, count: entryCount - index)
      (entries + index).initialize(to: entry)
    }
    withUnsafeMutablePointerToHeader { header in
      header.pointee = MapNodeHeader(
        dataMap: newDataMap, nodeMap: old.nodeMap, entryCount: entryCount + 1, childCount: childCount, slots: slots)
      header.pointee.spareWords = old.spareWords &- UInt16(truncatingIfNeeded: needed)
    }
    return true
  }

  /// Removes the entry at `index` from this uniquely referenced node in
  /// place and returns it; the storage keeps room for one entry more.
  @inlinable
  package func removeInPlace(entryAt index: Int, dataMap newDataMap: UInt32) -> Entry {
    let old = fields
    let entryCount = Int(old.entryCount)
    let gone = newDataMap ^ old.dataMap
    let slots = gone == 0 ? old.slots : old.slots.removingEntry(at: gone.trailingZeroBitCount, index: index)
    let childCount = Int(old.childCount)
    let freed = Self.wordCapacity(entryCount: entryCount, childCount: childCount)
      &- Self.wordCapacity(entryCount: entryCount - 1, childCount: childCount)
    let removed = withParts { entries, _ in
      let removed = (entries + index).move()
      (entries + index).moveInitialize(from: entries + index + 1, count: entryCount - index - 1)
      return removed
    }
    withUnsafeMutablePointerToHeader { header in
      header.pointee = MapNodeHeader(
        dataMap: newDataMap, nodeMap: old.nodeMap, entryCount: entryCount - 1, childCount: childCount, slots: slots)
      // A collision bucket can in theory free more words than 16 bits hold;
      // room beyond that is left unused.
      header.pointee.spareWords = UInt16(clamping: Int(old.spareWords) &+ freed)
    }
    return removed
  }

  /// This node without the entry at `index`.
  @inlinable
  package func removing(entryAt index: Int, dataMap newDataMap: UInt32) -> MapNode {
    let old = fields
    let entryCount = Int(old.entryCount)
    let childCount = Int(old.childCount)
    let gone = newDataMap ^ old.dataMap
    let slots = gone == 0 ? old.slots : old.slots.removingEntry(at: gone.trailingZeroBitCount, index: index)
    let header = MapNodeHeader(
      dataMap: newDataMap, nodeMap: old.nodeMap, entryCount: entryCount - 1, childCount: childCount, slots: slots)
    return withParts { entries, children in
      Self.make(header: header) { newEntries, newChildren in
        Self.copy(index, from: entries, to: newEntries)
        Self.copy(entryCount - index - 1, from: entries + index + 1, to: newEntries + index)
        Self.copy(childCount, from: children, to: newChildren)
      }
    }
  }

  /// This node with the entry at `entryIndex` replaced by `child` under `bit`.
  /// When `consuming` (this node is uniquely referenced and about to be
  /// dropped), its entries and children move to the new node instead of
  /// being copied and retained, and this node is left empty.
  @inlinable
  package func replacing(entryAt entryIndex: Int, with child: MapNode, bit: UInt32, consuming: Bool) -> MapNode {
    let entryCount = self.entryCount
    let childCount = self.childCount
    let old = fields
    let newNodeMap = old.nodeMap | bit
    let childIndex = Self.position(newNodeMap, bit)
    let header = MapNodeHeader(
      dataMap: old.dataMap ^ bit, nodeMap: newNodeMap, entryCount: entryCount - 1, childCount: childCount + 1,
      slots: old.slots.replacingEntry(at: bit.trailingZeroBitCount, index: entryIndex, withChild: childIndex))
    return withParts { entries, children in
      let node = Self.make(header: header) { newEntries, newChildren in
        Self.transfer(entryIndex, from: entries, to: newEntries, consuming: consuming)
        Self.transfer(
          entryCount - entryIndex - 1, from: entries + entryIndex + 1, to: newEntries + entryIndex, consuming: consuming)
        Self.transfer(childIndex, from: children, to: newChildren, consuming: consuming)
        (newChildren + childIndex).initialize(to: child)
        Self.transfer(
          childCount - childIndex, from: children + childIndex, to: newChildren + childIndex + 1, consuming: consuming)
      }
      if consuming {
        (entries + entryIndex).deinitialize(count: 1)
        abandonContents()
      }
      return node
    }
  }

  /// This node with the child at `childIndex` replaced by `entry` under `bit`.
  /// When `consuming`, its contents move as in
  /// ``replacing(entryAt:with:bit:consuming:)``.
  @inlinable
  package func replacing(childAt childIndex: Int, with entry: Entry, bit: UInt32, consuming: Bool) -> MapNode {
    let entryCount = self.entryCount
    let childCount = self.childCount
    let newDataMap = dataMap | bit
    let entryIndex = Self.position(newDataMap, bit)
    return withParts { entries, children in
      let node = Self.make(
        dataMap: newDataMap, nodeMap: nodeMap ^ bit, entryCount: entryCount + 1, childCount: childCount - 1
      ) {
        newEntries, newChildren in
        Self.transfer(entryIndex, from: entries, to: newEntries, consuming: consuming)
        (newEntries + entryIndex).initialize(to: entry)
        Self.transfer(
          entryCount - entryIndex, from: entries + entryIndex, to: newEntries + entryIndex + 1, consuming: consuming)
        Self.transfer(childIndex, from: children, to: newChildren, consuming: consuming)
        Self.transfer(
          childCount - childIndex - 1, from: children + childIndex + 1, to: newChildren + childIndex, consuming: consuming)
      }
      if consuming {
        (children + childIndex).deinitialize(count: 1)
        abandonContents()
      }
      return node
    }
  }

  /// Replaces the value of the entry at `index` in place (the node must be
  /// uniquely referenced); returns the old value.
  @inlinable
  package func replaceValue(at index: Int, with value: Value) -> Value {
    withParts { entries, _ in
      var value = value
      swap(&entries[index].value, &value)
      return value
    }
  }

  /// Runs `body` on the child at `index` while this (uniquely referenced)
  /// node does not hold it, so the child is uniquely referenced when nothing
  /// else shares it.
  @inlinable
  package func withChild<Result>(at index: Int, _ body: (inout MapNode) -> Result) -> Result {
    withParts { _, children in
      let slot = children + index
      var node = slot.move()
      let result = body(&node)
      slot.initialize(to: node)
      return result
    }
  }
}
