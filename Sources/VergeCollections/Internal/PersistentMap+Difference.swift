extension PersistentMap {
  /// The keys of `earlier` that this map does not hold, found by walking
  /// only the nodes the two maps do not share.
  ///
  /// - Complexity: O(1) when the maps share their root; otherwise
  ///   proportional to the nodes that differ (O(k log n) for k keys added or
  ///   removed since `earlier`), O(n) for unrelated maps.
  @inlinable
  package func keysRemoved(since earlier: PersistentMap) -> [Key] {
    var removed: [Key] = []
    MapNode.collectRemoved(from: earlier.root, in: root, shift: 0, into: &removed)
    return removed
  }
}

extension MapNode {
  /// Appends to `removed` the keys under `old` that are not under `new`,
  /// both being the nodes for one hash prefix at `shift`.
  @inlinable
  static func collectRemoved(from old: MapNode, in new: MapNode, shift: UInt64, into removed: inout [Key]) {
    if old === new { return }
    if shift >= maxShift {
      for index in 0..<old.entryCount where new.collisionIndex(of: old.key(at: index)) == nil {
        removed.append(old.key(at: index))
      }
      return
    }
    let oldHeader = old.fields
    let newHeader = new.fields
    if oldHeader.dataMap == newHeader.dataMap && oldHeader.nodeMap == newHeader.nodeMap {
      // The same slots on both sides (a write or a removal further down):
      // entries and children pair up by position, with no counting of
      // slots, and only children that are not shared are opened. The
      // walk reads both nodes' storage in place and holds no reference to
      // the children it passes (the two maps keep them alive).
      let entryCount = Int(oldHeader.entryCount)
      let childCount = Int(oldHeader.childCount)
      old.withParts { oldEntries, oldChildren in
        new.withParts { newEntries, newChildren in
          var index = 0
          while index < entryCount {
            if oldEntries[index].key != newEntries[index].key { removed.append(oldEntries[index].key) }
            index &+= 1
          }
          let oldAddresses = UnsafeRawPointer(oldChildren).assumingMemoryBound(to: UnsafeRawPointer.self)
          let newAddresses = UnsafeRawPointer(newChildren).assumingMemoryBound(to: UnsafeRawPointer.self)
          index = 0
          while index < childCount {
            if oldAddresses[index] != newAddresses[index] {
              collectRemoved(
                from: Unmanaged<MapNode>.fromOpaque(oldAddresses[index]).takeUnretainedValue(),
                in: Unmanaged<MapNode>.fromOpaque(newAddresses[index]).takeUnretainedValue(),
                shift: shift + levelBits, into: &removed)
            }
            index &+= 1
          }
        }
      }
      return
    }
    // Different slots: each occupied slot of `old` is looked up in `new`
    // through the slot tables, with no counting of bits.
    var occupied = oldHeader.dataMap | oldHeader.nodeMap
    while occupied != 0 {
      let slot = occupied.trailingZeroBitCount
      occupied &= occupied &- 1
      let oldTag = old.slotTag(slot)
      let newTag = new.slotTag(slot)
      if oldTag < MapNodeSlots.childTag {
        let key = old.key(at: Int(truncatingIfNeeded: oldTag &- 1))
        if newTag == 0 {
          removed.append(key)
        } else if newTag < MapNodeSlots.childTag {
          if new.key(at: Int(truncatingIfNeeded: newTag &- 1)) != key { removed.append(key) }
        } else {
          let child = new.child(at: Int(truncatingIfNeeded: newTag &- MapNodeSlots.childTag))
          if !child.contains(key, hash: PersistentMap<Key, Value>.hash(key), shift: shift + levelBits) {
            removed.append(key)
          }
        }
        continue
      }
      let oldIndex = Int(truncatingIfNeeded: oldTag &- MapNodeSlots.childTag)
      if newTag >= MapNodeSlots.childTag {
        // Shared children are skipped by address, without retaining them:
        // a write under a held copy leaves all but one child per level
        // shared.
        let newIndex = Int(truncatingIfNeeded: newTag &- MapNodeSlots.childTag)
        if old.childAddress(at: oldIndex) == new.childAddress(at: newIndex) { continue }
        collectRemoved(
          from: old.child(at: oldIndex), in: new.child(at: newIndex), shift: shift + levelBits, into: &removed)
        continue
      }
      let oldChild = old.child(at: oldIndex)
      if newTag != 0 {
        let kept = new.key(at: Int(truncatingIfNeeded: newTag &- 1))
        oldChild.forEachKey { if $0 != kept { removed.append($0) } }
      } else {
        oldChild.forEachKey { removed.append($0) }
      }
    }
  }

  /// The address of child `index`, to compare with another node's child
  /// without retaining either.
  @inlinable @inline(__always)
  func childAddress(at index: Int) -> UnsafeRawPointer {
    withUnsafeMutablePointerToElements { words in
      UnsafeRawPointer(words).load(fromByteOffset: index &* MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
    }
  }

  /// Whether `key` is under this node, which sits at `shift`.
  @inlinable
  func contains(_ key: Key, hash: UInt64, shift start: UInt64) -> Bool {
    var node = self
    var shift = start
    while true {
      if shift >= Self.maxShift { return node.collisionIndex(of: key) != nil }
      let tag = node.slotTag(Self.slot(hash, shift))
      if tag == 0 { return false }
      if tag < MapNodeSlots.childTag { return node.key(at: Int(truncatingIfNeeded: tag &- 1)) == key }
      node = node.child(at: Int(truncatingIfNeeded: tag &- MapNodeSlots.childTag))
      shift += Self.levelBits
    }
  }

  /// Calls `body` with every key under this node.
  @inlinable
  func forEachKey(_ body: (Key) -> Void) {
    for index in 0..<entryCount { body(key(at: index)) }
    for index in 0..<childCount { child(at: index).forEachKey(body) }
  }
}
