/// A persistent, structurally shared hash map: a hash array mapped trie in
/// the compressed (CHAMP) layout.
///
/// Copies share every node. A write copies only the nodes on the path to the
/// key that are shared with another copy, and mutates uniquely owned nodes in
/// place, so a write costs O(log₃₂ N) even while an earlier copy is held.
/// The trie is kept canonical (a subtree that holds one entry is inlined into
/// its parent), so two maps with equal contents have the same shape and can
/// be compared node by node, skipping shared nodes.
struct PersistentMap<Key: Hashable, Value> {
  private(set) var root: MapNode<Key, Value>
  private(set) var count: Int

  init() {
    root = MapNode()
    count = 0
  }

  static func hash(_ key: Key) -> UInt64 {
    UInt64(bitPattern: Int64(key.hashValue))
  }

  /// The value for `key`, or `nil`.
  ///
  /// - Complexity: O(log₃₂ N).
  subscript(key: Key) -> Value? {
    root.find(key, hash: Self.hash(key), shift: 0)
  }

  /// Stores `value` for `key`.
  ///
  /// - Returns: The value it replaced, or `nil`.
  /// - Complexity: O(log₃₂ N).
  @discardableResult
  mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    let old = MapNode.insert(&root, key: key, value: value, hash: Self.hash(key), shift: 0)
    if old == nil { count += 1 }
    return old
  }

  /// Removes `key`.
  ///
  /// - Returns: The value it held, or `nil` when absent.
  /// - Complexity: O(log₃₂ N).
  @discardableResult
  mutating func removeValue(forKey key: Key) -> Value? {
    guard root.find(key, hash: Self.hash(key), shift: 0) != nil else { return nil }
    let old = MapNode.remove(&root, key: key, hash: Self.hash(key), shift: 0)
    if old != nil { count -= 1 }
    return old
  }

  /// Removes every entry.
  mutating func removeAll() {
    self = PersistentMap()
  }

  /// Whether the two maps share their root node (then they are equal).
  func isIdentical(to other: PersistentMap) -> Bool {
    root === other.root
  }
}

extension PersistentMap where Value: Equatable {
  /// Content equality that skips shared subtrees.
  ///
  /// - Complexity: O(1) for maps sharing their root; otherwise proportional
  ///   to the nodes that are not shared.
  func contentEquals(_ other: PersistentMap) -> Bool {
    count == other.count && root.structurallyEquals(other.root, shift: 0)
  }
}

/// A trie node: inline entries (positions in `dataMap`) and child nodes
/// (positions in `nodeMap`). Below the last hash level a node is a collision
/// bucket: `entries` only, in insertion order.
final class MapNode<Key: Hashable, Value> {
  var dataMap: UInt32
  var nodeMap: UInt32
  var entries: [(key: Key, value: Value)]
  var children: [MapNode]

  init(dataMap: UInt32 = 0, nodeMap: UInt32 = 0, entries: [(key: Key, value: Value)] = [], children: [MapNode] = []) {
    self.dataMap = dataMap
    self.nodeMap = nodeMap
    self.entries = entries
    self.children = children
  }

  static var maxShift: UInt64 { 64 }

  func copy() -> MapNode {
    MapNode(dataMap: dataMap, nodeMap: nodeMap, entries: entries, children: children)
  }

  @inline(__always)
  static func bit(_ hash: UInt64, _ shift: UInt64) -> UInt32 {
    1 << UInt32(truncatingIfNeeded: (hash >> shift) & 31)
  }

  @inline(__always)
  static func position(_ map: UInt32, _ bit: UInt32) -> Int {
    (map & (bit &- 1)).nonzeroBitCount
  }

  var isCollisionBucket: Bool { dataMap == 0 && nodeMap == 0 && !entries.isEmpty }

  func find(_ key: Key, hash: UInt64, shift: UInt64) -> Value? {
    var node = self
    var shift = shift
    while true {
      if shift >= Self.maxShift {
        return node.entries.first { $0.key == key }?.value
      }
      let bit = Self.bit(hash, shift)
      if node.dataMap & bit != 0 {
        let entry = node.entries[Self.position(node.dataMap, bit)]
        return entry.key == key ? entry.value : nil
      }
      guard node.nodeMap & bit != 0 else { return nil }
      node = node.children[Self.position(node.nodeMap, bit)]
      shift += 5
    }
  }

  static func insert(_ node: inout MapNode, key: Key, value: Value, hash: UInt64, shift: UInt64) -> Value? {
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    let current = node
    if shift >= maxShift {
      if let index = current.entries.firstIndex(where: { $0.key == key }) {
        let old = current.entries[index].value
        current.entries[index].value = value
        return old
      }
      current.entries.append((key, value))
      return nil
    }
    let bit = Self.bit(hash, shift)
    if current.dataMap & bit != 0 {
      let index = position(current.dataMap, bit)
      if current.entries[index].key == key {
        let old = current.entries[index].value
        current.entries[index].value = value
        return old
      }
      let existing = current.entries.remove(at: index)
      current.dataMap ^= bit
      let child = pair(existing, PersistentMap<Key, Value>.hash(existing.key), (key, value), hash, shift: shift + 5)
      current.nodeMap |= bit
      current.children.insert(child, at: position(current.nodeMap, bit))
      return nil
    }
    if current.nodeMap & bit != 0 {
      let index = position(current.nodeMap, bit)
      return insert(&current.children[index], key: key, value: value, hash: hash, shift: shift + 5)
    }
    current.dataMap |= bit
    current.entries.insert((key, value), at: position(current.dataMap, bit))
    return nil
  }

  /// A node holding two entries whose hashes agree below `shift`.
  static func pair(
    _ a: (key: Key, value: Value), _ hashA: UInt64,
    _ b: (key: Key, value: Value), _ hashB: UInt64,
    shift: UInt64
  ) -> MapNode {
    if shift >= maxShift {
      return MapNode(entries: [a, b])
    }
    let bitA = bit(hashA, shift)
    let bitB = bit(hashB, shift)
    if bitA == bitB {
      return MapNode(nodeMap: bitA, children: [pair(a, hashA, b, hashB, shift: shift + 5)])
    }
    return MapNode(dataMap: bitA | bitB, entries: bitA < bitB ? [a, b] : [b, a])
  }

  /// Removes `key`, which must be present.
  static func remove(_ node: inout MapNode, key: Key, hash: UInt64, shift: UInt64) -> Value? {
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    let current = node
    if shift >= maxShift {
      guard let index = current.entries.firstIndex(where: { $0.key == key }) else { return nil }
      return current.entries.remove(at: index).value
    }
    let bit = Self.bit(hash, shift)
    if current.dataMap & bit != 0 {
      let index = position(current.dataMap, bit)
      guard current.entries[index].key == key else { return nil }
      current.dataMap ^= bit
      return current.entries.remove(at: index).value
    }
    guard current.nodeMap & bit != 0 else { return nil }
    let index = position(current.nodeMap, bit)
    let old = remove(&current.children[index], key: key, hash: hash, shift: shift + 5)
    let child = current.children[index]
    // Keep the trie canonical: a child left with a single entry is inlined.
    if child.nodeMap == 0 && child.entries.count == 1 {
      let entry = child.entries[0]
      current.children.remove(at: index)
      current.nodeMap ^= bit
      current.dataMap |= bit
      current.entries.insert(entry, at: position(current.dataMap, bit))
    }
    return old
  }

  func structurallyEquals(_ other: MapNode, shift: UInt64) -> Bool where Value: Equatable {
    if self === other { return true }
    guard dataMap == other.dataMap, nodeMap == other.nodeMap,
      entries.count == other.entries.count, children.count == other.children.count
    else { return false }
    if shift >= Self.maxShift {
      // Collision buckets hold entries in insertion order.
      return entries.allSatisfy { entry in
        other.entries.contains { $0.key == entry.key && $0.value == entry.value }
      }
    }
    for (a, b) in zip(entries, other.entries) where a.key != b.key || a.value != b.value {
      return false
    }
    for (a, b) in zip(children, other.children) where !a.structurallyEquals(b, shift: shift + 5) {
      return false
    }
    return true
  }
}

extension PersistentMap: Sendable where Key: Sendable, Value: Sendable {}
