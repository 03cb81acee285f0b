/// A persistent, structurally shared hash map: a hash array mapped trie in
/// the compressed (CHAMP) layout.
///
/// Copies share every node. A write copies only the nodes on the path to the
/// key that are shared with another copy, and mutates uniquely owned nodes in
/// place, so a write costs O(log₁₆ N) even while an earlier copy is held.
/// The trie is kept canonical (a subtree that holds one entry is inlined into
/// its parent), so two maps with equal contents have the same shape and can
/// be compared node by node, skipping shared nodes.
///
/// Everything here is `@inlinable` so that the client module specializes the
/// trie for its key and value types instead of running generic code.
@usableFromInline
package struct PersistentMap<Key: Hashable, Value> {
  @usableFromInline package var root: MapNode<Key, Value>
  @usableFromInline package var count: Int

  @inlinable
  package init() {
    root = MapNode.empty()
    count = 0
  }

  /// The trie's hash of `key`.
  ///
  /// `Int` and `UInt64` keys (row ids, entity ids) are mixed by a bijection
  /// of their 64 bits (the finalizer of SplitMix64, about ten instructions)
  /// instead of `hashValue`'s SipHash (about ninety): distinct keys never
  /// share a hash, so such keys never meet in a collision bucket, and keys
  /// chosen to share hash prefixes can deepen a path to at most 16 levels.
  /// Other keys use `hashValue`. The test of the key's type is resolved
  /// when the map is specialized.
  @inlinable @inline(__always)
  package static func hash(_ key: Key) -> UInt64 {
    var bits: UInt64
    if Key.self == Int.self {
      bits = UInt64(bitPattern: Int64(unsafeBitCast(key, to: Int.self)))
    } else if Key.self == UInt64.self {
      bits = unsafeBitCast(key, to: UInt64.self)
    } else {
      return UInt64(bitPattern: Int64(key.hashValue))
    }
    // SplitMix64's finalizer: a bijection that spreads every input bit over
    // the output.
    bits = (bits ^ (bits >> 30)) &* 0xbf58_476d_1ce4_e5b9
    bits = (bits ^ (bits >> 27)) &* 0x94d0_49bb_1331_11eb
    return bits ^ (bits >> 31)
  }

  /// The value for `key`, or `nil`.
  ///
  /// - Complexity: O(log₁₆ N).
  @inlinable
  package subscript(key: Key) -> Value? {
    MapNode.find(key, hash: Self.hash(key), in: root)
  }

  /// Stores `value` for `key`.
  ///
  /// - Returns: The value it replaced, or `nil`.
  /// - Complexity: O(log₁₆ N).
  @inlinable
  @discardableResult
  package mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    let old = MapNode.insert(&root, key: key, value: value, hash: Self.hash(key), shift: 0)
    if old == nil { count += 1 }
    return old
  }

  /// Removes `key`.
  ///
  /// - Returns: The value it held, or `nil` when absent.
  /// - Complexity: O(log₁₆ N).
  @inlinable
  @discardableResult
  package mutating func removeValue(forKey key: Key) -> Value? {
    let hash = Self.hash(key)
    guard MapNode.find(key, hash: hash, in: root) != nil else { return nil }
    let old = MapNode.remove(&root, key: key, hash: hash, shift: 0)
    if old != nil { count -= 1 }
    return old
  }

  /// Removes every entry.
  @inlinable
  package mutating func removeAll() {
    self = PersistentMap()
  }

  /// Whether the two maps share their root node (then they are equal).
  @inlinable
  package func isIdentical(to other: PersistentMap) -> Bool {
    root === other.root
  }
}

extension PersistentMap where Value: Equatable {
  /// Content equality that skips shared subtrees.
  ///
  /// - Complexity: O(1) for maps sharing their root; otherwise proportional
  ///   to the nodes that are not shared.
  @inlinable
  package func contentEquals(_ other: PersistentMap) -> Bool {
    count == other.count && root.structurallyEquals(other.root, shift: 0)
  }
}
