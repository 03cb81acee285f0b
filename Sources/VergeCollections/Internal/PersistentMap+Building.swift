extension PersistentMap {
  /// A map of `keys[i]` to `value(i)` for every `i`, built bottom-up in one
  /// pass per level instead of one insertion per key; or, when a key occurs
  /// twice, the position of the first key that an earlier one repeats
  /// (the map is then empty).
  ///
  /// The keys' hashes are grouped by their slot at each level (a stable
  /// counting sort per level, like a radix sort that starts at the hash's
  /// low bits, which the trie reads first), and every node is made once, at
  /// its final size: no node grows, moves or is freed on the way. The trie
  /// is the one that inserting the keys in order would build, so maps built
  /// either way compare node by node.
  ///
  /// - Complexity: O(n log₁₆ n), with a small constant per element and
  ///   level.
  @inlinable
  package static func building(keys: ContiguousArray<Key>, value: (Int) -> Value) -> (map: PersistentMap, duplicate: Int?) {
    let count = keys.count
    guard count > 0 else { return (PersistentMap(), nil) }
    // Each key's hash with its position, sorted level by level in place,
    // with a scratch buffer of the same size.
    var items = ContiguousArray<MapBuildItem>()
    items.reserveCapacity(count)
    for index in 0..<count { items.append(MapBuildItem(hash: hash(keys[index]), index: index)) }
    var scratch = items
    var duplicate = Int.max
    let root = items.withUnsafeMutableBufferPointer { items in
      scratch.withUnsafeMutableBufferPointer { scratch in
        keys.withUnsafeBufferPointer { keys in
          MapNode.build(items, scratch: scratch, keys: keys, value: value, shift: 0, duplicate: &duplicate)
        }
      }
    }
    guard duplicate == .max else { return (PersistentMap(), duplicate) }
    var map = PersistentMap()
    map.root = root
    map.count = count
    return (map, nil)
  }
}

/// A key's hash and its position among the keys being built into a map.
@usableFromInline
package struct MapBuildItem {
  @usableFromInline package var hash: UInt64
  @usableFromInline package var index: Int

  @inlinable
  package init(hash: UInt64, index: Int) {
    self.hash = hash
    self.index = index
  }
}

extension MapNode {
  /// The node at `shift` holding the keys of `items` (at least one, in the
  /// keys' order), which are grouped by slot through `scratch` (as large).
  /// A key that an earlier one repeats lowers `duplicate` to its position.
  @inlinable
  package static func build(
    _ items: UnsafeMutableBufferPointer<MapBuildItem>, scratch: UnsafeMutableBufferPointer<MapBuildItem>,
    keys: UnsafeBufferPointer<Key>, value: (Int) -> Value, shift: UInt64, duplicate: inout Int
  ) -> MapNode {
    if shift >= maxShift {
      // A collision bucket: every key here has the same hash; equal keys
      // are duplicates.
      for later in 1..<items.count {
        let key = keys[items[later].index]
        for earlier in 0..<later where keys[items[earlier].index] == key {
          duplicate = Swift.min(duplicate, items[later].index)
        }
      }
      return make(dataMap: 0, nodeMap: 0, entryCount: items.count, childCount: 0) { entries, _ in
        for position in 0..<items.count {
          let index = items[position].index
          (entries + position).initialize(to: (keys[index], value(index)))
        }
      }
    }
    // How many keys fall in each slot; then where each slot's run starts.
    var slotCounts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &slotCounts) { raw -> MapNode in
      let perSlot = raw.bindMemory(to: Int.self)
      for item in items { perSlot[slot(item.hash, shift)] &+= 1 }
      var dataMap: UInt32 = 0
      var nodeMap: UInt32 = 0
      var entryCount = 0
      var childCount = 0
      var begin = 0
      // Each slot's run start in `scratch`; counts become starts.
      for slot in 0..<16 {
        let inSlot = perSlot[slot]
        if inSlot == 1 {
          dataMap |= 1 << UInt32(slot)
          entryCount &+= 1
        } else if inSlot > 1 {
          nodeMap |= 1 << UInt32(slot)
          childCount &+= 1
        }
        perSlot[slot] = begin
        begin &+= inSlot
      }
      // A stable counting sort of the items into `scratch` by slot.
      for item in items {
        let slot = slot(item.hash, shift)
        scratch[perSlot[slot]] = item
        perSlot[slot] &+= 1
      }
      // `perSlot[slot]` is now the end of the slot's run.
      return make(dataMap: dataMap, nodeMap: nodeMap, entryCount: entryCount, childCount: childCount) {
        entries, children in
        var entry = 0
        var child = 0
        var runStart = 0
        for slot in 0..<16 {
          let runEnd = perSlot[slot]
          let size = runEnd &- runStart
          if size == 1 {
            let index = scratch[runStart].index
            (entries + entry).initialize(to: (keys[index], value(index)))
            entry &+= 1
          } else if size > 1 {
            let run = runStart..<runEnd
            let node = build(
              UnsafeMutableBufferPointer(rebasing: scratch[run]), scratch: UnsafeMutableBufferPointer(rebasing: items[run]),
              keys: keys, value: value, shift: shift &+ levelBits, duplicate: &duplicate)
            (children + child).initialize(to: node)
            child &+= 1
          }
          runStart = runEnd
        }
      }
    }
  }
}
