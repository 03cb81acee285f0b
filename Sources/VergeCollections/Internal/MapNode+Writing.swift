// Writing a key below a node: nodes that another trie shares are copied,
// uniquely referenced ones are changed in place.
extension MapNode {
  @inlinable
  package static func insert(_ node: inout MapNode, key: Key, value: Value, hash: UInt64, shift: UInt64) -> Value? {
    if shift >= maxShift {
      if let index = node.collisionIndex(of: key) {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        return node.replaceValue(at: index, with: value)
      }
      if node.fields.spareWords == 0 || !isKnownUniquelyReferenced(&node)
        || !node.insertInPlace((key, value), at: node.entryCount, dataMap: 0)
      {
        node = node.inserting((key, value), at: node.entryCount, dataMap: 0)
      }
      return nil
    }
    let bit = Self.bit(hash, shift)
    let tag = node.slotTag(Self.slot(hash, shift))
    if tag >= MapNodeSlots.childTag {
      if !isKnownUniquelyReferenced(&node) { node = node.copy() }
      return node.withChild(at: Int(truncatingIfNeeded: tag &- MapNodeSlots.childTag)) { child in
        insert(&child, key: key, value: value, hash: hash, shift: shift + Self.levelBits)
      }
    }
    if tag != 0 {
      let index = Int(truncatingIfNeeded: tag &- 1)
      let existing = node.entry(at: index)
      if existing.key == key {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        return node.replaceValue(at: index, with: value)
      }
      let child = pair(existing, PersistentMap<Key, Value>.hash(existing.key), (key, value), hash, shift: shift + Self.levelBits)
      let unique = isKnownUniquelyReferenced(&node)
      node = node.replacing(entryAt: index, with: child, bit: bit, consuming: unique)
      return nil
    }
    let newDataMap = node.dataMap | bit
    let index = position(newDataMap, bit)
    if node.fields.spareWords == 0 || !isKnownUniquelyReferenced(&node)
      || !node.insertInPlace((key, value), at: index, dataMap: newDataMap)
    {
      node = node.inserting((key, value), at: index, dataMap: newDataMap)
    }
    return nil
  }

  /// A node holding two entries whose hashes agree below `shift`.
  @inlinable
  package static func pair(_ a: Entry, _ hashA: UInt64, _ b: Entry, _ hashB: UInt64, shift: UInt64) -> MapNode {
    var slots = MapNodeSlots.unused
    if shift >= maxShift {
      let header = MapNodeHeader(dataMap: 0, nodeMap: 0, entryCount: 2, childCount: 0, slots: slots)
      return make(header: header) { entries, _ in
        entries.initialize(to: a)
        (entries + 1).initialize(to: b)
      }
    }
    let slotA = slot(hashA, shift)
    let slotB = slot(hashB, shift)
    if slotA == slotB {
      let child = pair(a, hashA, b, hashB, shift: shift + Self.levelBits)
      slots.setByte(MapNodeSlots.childTag, at: slotA)
      let header = MapNodeHeader(dataMap: 0, nodeMap: 1 << UInt32(slotA), entryCount: 0, childCount: 1, slots: slots)
      return make(header: header) { _, children in
        children.initialize(to: child)
      }
    }
    let (first, second) = slotA < slotB ? (a, b) : (b, a)
    slots.setByte(1, at: Swift.min(slotA, slotB))
    slots.setByte(2, at: Swift.max(slotA, slotB))
    let dataMap: UInt32 = 1 << UInt32(slotA) | 1 << UInt32(slotB)
    let header = MapNodeHeader(dataMap: dataMap, nodeMap: 0, entryCount: 2, childCount: 0, slots: slots)
    return make(header: header) { entries, _ in
      entries.initialize(to: first)
      (entries + 1).initialize(to: second)
    }
  }

  /// Removes `key`, which must be present.
  @inlinable
  package static func remove(_ node: inout MapNode, key: Key, hash: UInt64, shift: UInt64) -> Value? {
    if shift >= maxShift {
      guard let index = node.collisionIndex(of: key) else { return nil }
      if isKnownUniquelyReferenced(&node) { return node.removeInPlace(entryAt: index, dataMap: 0).value }
      let old = node.entry(at: index).value
      node = node.removing(entryAt: index, dataMap: 0)
      return old
    }
    let bit = Self.bit(hash, shift)
    let tag = node.slotTag(Self.slot(hash, shift))
    guard tag != 0 else { return nil }
    if tag < MapNodeSlots.childTag {
      let index = Int(truncatingIfNeeded: tag &- 1)
      let entry = node.entry(at: index)
      guard entry.key == key else { return nil }
      if isKnownUniquelyReferenced(&node) { return node.removeInPlace(entryAt: index, dataMap: node.dataMap ^ bit).value }
      node = node.removing(entryAt: index, dataMap: node.dataMap ^ bit)
      return entry.value
    }
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    let index = Int(truncatingIfNeeded: tag &- MapNodeSlots.childTag)
    let (old, inlined): (Value?, Entry?) = node.withChild(at: index) { child in
      let old = remove(&child, key: key, hash: hash, shift: shift + Self.levelBits)
      // Keep the trie canonical: a child left with a single entry is inlined.
      let inlined = child.childCount == 0 && child.entryCount == 1 ? child.entry(at: 0) : nil
      return (old, inlined)
    }
    if let inlined {
      // `node` was made unique above.
      node = node.replacing(childAt: index, with: inlined, bit: bit, consuming: true)
    }
    return old
  }
}
