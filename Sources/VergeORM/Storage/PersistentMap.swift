/// A persistent, structurally shared hash map: a hash array mapped trie in
/// the compressed (CHAMP) layout.
///
/// Copies share every node. A write copies only the nodes on the path to the
/// key that are shared with another copy, and mutates uniquely owned nodes in
/// place, so a write costs O(log₃₂ N) even while an earlier copy is held.
/// The trie is kept canonical (a subtree that holds one entry is inlined into
/// its parent), so two maps with equal contents have the same shape and can
/// be compared node by node, skipping shared nodes.
///
/// Everything here is `@inlinable` so that the client module specializes the
/// trie for its key and value types instead of running generic code.
@usableFromInline
struct PersistentMap<Key: Hashable, Value> {
  @usableFromInline var root: MapNode<Key, Value>
  @usableFromInline var count: Int

  @inlinable
  init() {
    root = MapNode.empty()
    count = 0
  }

  @inlinable @inline(__always)
  static func hash(_ key: Key) -> UInt64 {
    UInt64(bitPattern: Int64(key.hashValue))
  }

  /// The value for `key`, or `nil`.
  ///
  /// - Complexity: O(log₃₂ N).
  @inlinable
  subscript(key: Key) -> Value? {
    root.find(key, hash: Self.hash(key))
  }

  /// Stores `value` for `key`.
  ///
  /// - Returns: The value it replaced, or `nil`.
  /// - Complexity: O(log₃₂ N).
  @inlinable
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
  @inlinable
  @discardableResult
  mutating func removeValue(forKey key: Key) -> Value? {
    let hash = Self.hash(key)
    guard root.find(key, hash: hash) != nil else { return nil }
    let old = MapNode.remove(&root, key: key, hash: hash, shift: 0)
    if old != nil { count -= 1 }
    return old
  }

  /// Removes every entry.
  @inlinable
  mutating func removeAll() {
    self = PersistentMap()
  }

  /// Whether the two maps share their root node (then they are equal).
  @inlinable
  func isIdentical(to other: PersistentMap) -> Bool {
    root === other.root
  }
}

extension PersistentMap where Value: Equatable {
  /// Content equality that skips shared subtrees.
  ///
  /// - Complexity: O(1) for maps sharing their root; otherwise proportional
  ///   to the nodes that are not shared.
  @inlinable
  func contentEquals(_ other: PersistentMap) -> Bool {
    count == other.count && root.structurallyEquals(other.root, shift: 0)
  }
}

/// The fixed part of a trie node: which of the 32 slots hold an entry or a
/// child, and how many of each the node stores after its header.
@usableFromInline
struct MapNodeHeader {
  @usableFromInline var dataMap: UInt32
  @usableFromInline var nodeMap: UInt32
  @usableFromInline var entryCount: UInt32
  @usableFromInline var childCount: UInt32

  @inlinable
  init(dataMap: UInt32, nodeMap: UInt32, entryCount: Int, childCount: Int) {
    self.dataMap = dataMap
    self.nodeMap = nodeMap
    self.entryCount = UInt32(truncatingIfNeeded: entryCount)
    self.childCount = UInt32(truncatingIfNeeded: childCount)
  }
}

/// One stored element of a node: an entry, or a child node.
@usableFromInline
enum MapSlot<Key: Hashable, Value> {
  case entry(Key, Value)
  case child(MapNode<Key, Value>)
}

/// A trie node: entries (positions in `dataMap`) followed by child nodes
/// (positions in `nodeMap`), stored in the node's own allocation so a node
/// costs one allocation and a lookup one memory access per level. Below the
/// last hash level a node is a collision bucket: entries only, in insertion
/// order.
///
/// A node's size is fixed: writes that add or remove a slot build a new node;
/// writes that replace a slot mutate a uniquely referenced node in place.
@usableFromInline
final class MapNode<Key: Hashable, Value>: ManagedBuffer<MapNodeHeader, MapSlot<Key, Value>> {
  @usableFromInline typealias Slot = MapSlot<Key, Value>
  @usableFromInline typealias Entry = (key: Key, value: Value)

  deinit {
    _ = withUnsafeMutablePointers { header, slots in
      slots.deinitialize(count: Int(header.pointee.entryCount) + Int(header.pointee.childCount))
    }
  }

  /// A node of `entryCount` entries and `childCount` children whose slots
  /// `fill` initializes, all of them.
  @inlinable
  static func make(
    dataMap: UInt32, nodeMap: UInt32, entryCount: Int, childCount: Int,
    _ fill: (UnsafeMutablePointer<Slot>) -> Void
  ) -> MapNode {
    let buffer = create(minimumCapacity: entryCount + childCount) { _ in
      MapNodeHeader(dataMap: dataMap, nodeMap: nodeMap, entryCount: entryCount, childCount: childCount)
    }
    let node = unsafeDowncast(buffer, to: MapNode.self)
    node.withUnsafeMutablePointerToElements { fill($0) }
    return node
  }

  @inlinable
  static func empty() -> MapNode {
    make(dataMap: 0, nodeMap: 0, entryCount: 0, childCount: 0) { _ in }
  }

  @inlinable
  static var maxShift: UInt64 { 64 }

  /// The header, read through its pointer (no dynamic exclusivity check).
  @inlinable var fields: MapNodeHeader { withUnsafeMutablePointerToHeader { $0.pointee } }

  @inlinable var dataMap: UInt32 { fields.dataMap }
  @inlinable var nodeMap: UInt32 { fields.nodeMap }
  @inlinable var entryCount: Int { Int(fields.entryCount) }
  @inlinable var childCount: Int { Int(fields.childCount) }

  @inlinable
  func entry(at index: Int) -> Entry {
    withUnsafeMutablePointerToElements { slots in
      guard case .entry(let key, let value) = slots[index] else { preconditionFailure("not an entry") }
      return (key, value)
    }
  }

  @inlinable
  func key(at index: Int) -> Key {
    withUnsafeMutablePointerToElements { slots in
      guard case .entry(let key, _) = slots[index] else { preconditionFailure("not an entry") }
      return key
    }
  }

  @inlinable
  func child(at index: Int) -> MapNode {
    withUnsafeMutablePointerToElements { slots in
      guard case .child(let node) = slots[entryCount + index] else { preconditionFailure("not a child") }
      return node
    }
  }

  /// The entries, for checks and tests.
  @inlinable
  var entries: [Entry] { (0..<entryCount).map { entry(at: $0) } }

  /// The children, for checks and tests.
  @inlinable
  var children: [MapNode] { (0..<childCount).map { child(at: $0) } }

  /// A copy sharing the entries' values and the children.
  @inlinable
  func copy() -> MapNode {
    let count = entryCount + childCount
    return withUnsafeMutablePointerToElements { source in
      Self.make(dataMap: dataMap, nodeMap: nodeMap, entryCount: entryCount, childCount: childCount) {
        Self.copySlots(to: $0, from: source, count: count)
      }
    }
  }

  /// Copies `count` slots, one at a time, so that the copy is specialized
  /// for the slot type (a bulk `initialize(from:count:)` goes through the
  /// runtime's generic array copy, one value-witness call per slot).
  @inlinable @inline(__always)
  static func copySlots(to target: UnsafeMutablePointer<Slot>, from source: UnsafeMutablePointer<Slot>, count: Int) {
    var index = 0
    while index < count {
      (target + index).initialize(to: source[index])
      index += 1
    }
  }

  @inlinable @inline(__always)
  static func bit(_ hash: UInt64, _ shift: UInt64) -> UInt32 {
    1 << UInt32(truncatingIfNeeded: (hash >> shift) & 31)
  }

  @inlinable @inline(__always)
  static func position(_ map: UInt32, _ bit: UInt32) -> Int {
    (map & (bit &- 1)).nonzeroBitCount
  }

  @inlinable
  func collisionIndex(of key: Key) -> Int? {
    (0..<entryCount).first { self.key(at: $0) == key }
  }

  @inlinable
  func find(_ key: Key, hash: UInt64) -> Value? {
    var node = self
    var shift: UInt64 = 0
    while true {
      if shift >= Self.maxShift {
        return node.collisionIndex(of: key).map { node.entry(at: $0).value }
      }
      let bit = Self.bit(hash, shift)
      let header = node.fields
      if header.dataMap & bit != 0 {
        let entry = node.entry(at: Self.position(header.dataMap, bit))
        return entry.key == key ? entry.value : nil
      }
      guard header.nodeMap & bit != 0 else { return nil }
      node = node.child(at: Self.position(header.nodeMap, bit))
      shift += 5
    }
  }

  // MARK: Building changed nodes

  /// This node with `entry` added at entry position `index`.
  @inlinable
  func inserting(_ entry: Entry, at index: Int, dataMap newDataMap: UInt32) -> MapNode {
    let entries = entryCount
    let children = childCount
    return withUnsafeMutablePointerToElements { source in
      Self.make(dataMap: newDataMap, nodeMap: nodeMap, entryCount: entries + 1, childCount: children) { target in
        Self.copySlots(to: target, from: source, count: index)
        (target + index).initialize(to: .entry(entry.key, entry.value))
        Self.copySlots(to: target + index + 1, from: source + index, count: entries - index + children)
      }
    }
  }

  /// This node without the entry at `index`.
  @inlinable
  func removing(entryAt index: Int, dataMap newDataMap: UInt32) -> MapNode {
    let entries = entryCount
    let children = childCount
    return withUnsafeMutablePointerToElements { source in
      Self.make(dataMap: newDataMap, nodeMap: nodeMap, entryCount: entries - 1, childCount: children) { target in
        Self.copySlots(to: target, from: source, count: index)
        Self.copySlots(to: target + index, from: source + index + 1, count: entries - index - 1 + children)
      }
    }
  }

  /// This node with the entry at `entryIndex` replaced by `child` under `bit`.
  @inlinable
  func replacing(entryAt entryIndex: Int, with child: MapNode, bit: UInt32) -> MapNode {
    let entries = entryCount
    let children = childCount
    let newNodeMap = nodeMap | bit
    let childIndex = Self.position(newNodeMap, bit)
    return withUnsafeMutablePointerToElements { source in
      Self.make(dataMap: dataMap ^ bit, nodeMap: newNodeMap, entryCount: entries - 1, childCount: children + 1) {
        target in
        Self.copySlots(to: target, from: source, count: entryIndex)
        Self.copySlots(to: target + entryIndex, from: source + entryIndex + 1, count: entries - entryIndex - 1 + childIndex)
        (target + entries - 1 + childIndex).initialize(to: .child(child))
        Self.copySlots(to: target + entries + childIndex, from: source + entries + childIndex, count: children - childIndex)
      }
    }
  }

  /// This node with the child at `childIndex` replaced by `entry` under `bit`.
  @inlinable
  func replacing(childAt childIndex: Int, with entry: Entry, bit: UInt32) -> MapNode {
    let entries = entryCount
    let children = childCount
    let newDataMap = dataMap | bit
    let entryIndex = Self.position(newDataMap, bit)
    return withUnsafeMutablePointerToElements { source in
      Self.make(dataMap: newDataMap, nodeMap: nodeMap ^ bit, entryCount: entries + 1, childCount: children - 1) {
        target in
        Self.copySlots(to: target, from: source, count: entryIndex)
        (target + entryIndex).initialize(to: .entry(entry.key, entry.value))
        Self.copySlots(to: target + entryIndex + 1, from: source + entryIndex, count: entries - entryIndex + childIndex)
        Self.copySlots(
          to: target + entries + 1 + childIndex, from: source + entries + childIndex + 1,
          count: children - childIndex - 1)
      }
    }
  }

  /// Replaces the value of the entry at `index` in place (the node must be
  /// uniquely referenced); returns the old value.
  @inlinable
  func replaceValue(at index: Int, with value: Value) -> Value {
    withUnsafeMutablePointerToElements { slots in
      guard case .entry(let key, let old) = (slots + index).move() else { preconditionFailure("not an entry") }
      (slots + index).initialize(to: .entry(key, value))
      return old
    }
  }

  /// Runs `body` on the child at `index` while this (uniquely referenced)
  /// node does not hold it, so the child is uniquely referenced when nothing
  /// else shares it.
  @inlinable
  func withChild<Result>(at index: Int, _ body: (inout MapNode) -> Result) -> Result {
    withUnsafeMutablePointerToElements { slots in
      let slot = slots + entryCount + index
      guard case .child(var node) = slot.move() else { preconditionFailure("not a child") }
      let result = body(&node)
      slot.initialize(to: .child(node))
      return result
    }
  }

  // MARK: Writing

  @inlinable
  static func insert(_ node: inout MapNode, key: Key, value: Value, hash: UInt64, shift: UInt64) -> Value? {
    if shift >= maxShift {
      if let index = node.collisionIndex(of: key) {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        return node.replaceValue(at: index, with: value)
      }
      node = node.inserting((key, value), at: node.entryCount, dataMap: 0)
      return nil
    }
    let bit = Self.bit(hash, shift)
    let header = node.fields
    if header.dataMap & bit != 0 {
      let index = position(header.dataMap, bit)
      let existing = node.entry(at: index)
      if existing.key == key {
        if !isKnownUniquelyReferenced(&node) { node = node.copy() }
        return node.replaceValue(at: index, with: value)
      }
      let child = pair(existing, PersistentMap<Key, Value>.hash(existing.key), (key, value), hash, shift: shift + 5)
      node = node.replacing(entryAt: index, with: child, bit: bit)
      return nil
    }
    if header.nodeMap & bit != 0 {
      if !isKnownUniquelyReferenced(&node) { node = node.copy() }
      return node.withChild(at: position(header.nodeMap, bit)) { child in
        insert(&child, key: key, value: value, hash: hash, shift: shift + 5)
      }
    }
    let newDataMap = header.dataMap | bit
    node = node.inserting((key, value), at: position(newDataMap, bit), dataMap: newDataMap)
    return nil
  }

  /// A node holding two entries whose hashes agree below `shift`.
  @inlinable
  static func pair(_ a: Entry, _ hashA: UInt64, _ b: Entry, _ hashB: UInt64, shift: UInt64) -> MapNode {
    if shift >= maxShift {
      return make(dataMap: 0, nodeMap: 0, entryCount: 2, childCount: 0) {
        $0.initialize(to: .entry(a.key, a.value))
        ($0 + 1).initialize(to: .entry(b.key, b.value))
      }
    }
    let bitA = bit(hashA, shift)
    let bitB = bit(hashB, shift)
    if bitA == bitB {
      let child = pair(a, hashA, b, hashB, shift: shift + 5)
      return make(dataMap: 0, nodeMap: bitA, entryCount: 0, childCount: 1) { $0.initialize(to: .child(child)) }
    }
    let (first, second) = bitA < bitB ? (a, b) : (b, a)
    return make(dataMap: bitA | bitB, nodeMap: 0, entryCount: 2, childCount: 0) {
      $0.initialize(to: .entry(first.key, first.value))
      ($0 + 1).initialize(to: .entry(second.key, second.value))
    }
  }

  /// Removes `key`, which must be present.
  @inlinable
  static func remove(_ node: inout MapNode, key: Key, hash: UInt64, shift: UInt64) -> Value? {
    if shift >= maxShift {
      guard let index = node.collisionIndex(of: key) else { return nil }
      let old = node.entry(at: index).value
      node = node.removing(entryAt: index, dataMap: 0)
      return old
    }
    let bit = Self.bit(hash, shift)
    let header = node.fields
    if header.dataMap & bit != 0 {
      let index = position(header.dataMap, bit)
      let entry = node.entry(at: index)
      guard entry.key == key else { return nil }
      node = node.removing(entryAt: index, dataMap: header.dataMap ^ bit)
      return entry.value
    }
    guard header.nodeMap & bit != 0 else { return nil }
    if !isKnownUniquelyReferenced(&node) { node = node.copy() }
    let index = position(header.nodeMap, bit)
    let (old, inlined): (Value?, Entry?) = node.withChild(at: index) { child in
      let old = remove(&child, key: key, hash: hash, shift: shift + 5)
      // Keep the trie canonical: a child left with a single entry is inlined.
      let inlined = child.childCount == 0 && child.entryCount == 1 ? child.entry(at: 0) : nil
      return (old, inlined)
    }
    if let inlined {
      node = node.replacing(childAt: index, with: inlined, bit: bit)
    }
    return old
  }

  @inlinable
  func structurallyEquals(_ other: MapNode, shift: UInt64) -> Bool where Value: Equatable {
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
    for index in 0..<childCount where !child(at: index).structurallyEquals(other.child(at: index), shift: shift + 5) {
      return false
    }
    return true
  }
}
