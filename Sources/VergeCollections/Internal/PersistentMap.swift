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
    if Key.self == Int.self {
      return mix(UInt64(bitPattern: Int64(unsafeBitCast(key, to: Int.self))))
    }
    if Key.self == UInt64.self {
      return mix(unsafeBitCast(key, to: UInt64.self))
    }
    return UInt64(bitPattern: Int64(key.hashValue))
  }

  /// A bijection of 64 bits that spreads every input bit over the output
  /// (SplitMix64's finalizer).
  @inlinable @inline(__always)
  package static func mix(_ value: UInt64) -> UInt64 {
    var bits = value
    bits = (bits ^ (bits >> 30)) &* 0xbf58_476d_1ce4_e5b9
    bits = (bits ^ (bits >> 27)) &* 0x94d0_49bb_1331_11eb
    return bits ^ (bits >> 31)
  }

  /// The value for `key`, or `nil`.
  ///
  /// - Complexity: O(log₁₆ N).
  @inlinable
  package subscript(key: Key) -> Value? {
    root.find(key, hash: Self.hash(key))
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
    guard root.find(key, hash: hash) != nil else { return nil }
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

/// The fixed part of a trie node: which of its 16 slots (see `levelBits`)
/// hold an entry or a child, how many of each the node stores after its
/// header, and a table that says per slot where its entry or child is
/// stored.
///
/// The table spares a lookup the two population counts per level that a
/// compressed trie otherwise needs to turn a slot into a storage position
/// (x86_64's baseline has no population count instruction: each costs about
/// fifteen instructions): a lookup reads the slot's byte and goes straight to
/// the child or the entry. It costs 16 bytes per node, and is rebuilt only
/// when a write adds or removes a slot (a copy copies it).
@usableFromInline
package struct MapNodeHeader {
  @usableFromInline package var dataMap: UInt32
  @usableFromInline package var nodeMap: UInt32
  @usableFromInline package var entryCount: UInt32
  /// At most 16 (one per slot), so 16 bits hold it.
  @usableFromInline package var childCount: UInt16
  /// Words of storage past what the entries and children need: room that
  /// an in-place removal left, for an in-place insertion to reuse.
  @usableFromInline package var spareWords: UInt16
  /// Per slot, one byte: 0 for an empty slot, `1 + i` for entry `i`,
  /// `childTag + i` for child `i`.
  @usableFromInline package var slots: MapNodeSlots

  @inlinable
  package init(dataMap: UInt32, nodeMap: UInt32, entryCount: Int, childCount: Int) {
    self.dataMap = dataMap
    self.nodeMap = nodeMap
    self.entryCount = UInt32(truncatingIfNeeded: entryCount)
    self.childCount = UInt16(truncatingIfNeeded: childCount)
    self.spareWords = 0
    self.slots = MapNodeSlots(dataMap: dataMap, nodeMap: nodeMap)
  }

  /// A header whose slot table is `slots` (which must match the maps).
  @inlinable
  package init(dataMap: UInt32, nodeMap: UInt32, entryCount: Int, childCount: Int, slots: MapNodeSlots) {
    self.dataMap = dataMap
    self.nodeMap = nodeMap
    self.entryCount = UInt32(truncatingIfNeeded: entryCount)
    self.childCount = UInt16(truncatingIfNeeded: childCount)
    self.spareWords = 0
    self.slots = slots
  }

  /// The byte offset of the slot table in the header.
  @inlinable @inline(__always)
  package static var slotsOffset: Int { MemoryLayout<MapNodeHeader>.offset(of: \.slots)! }
}

/// The slot table of a trie node: one byte per slot, in slot order.
@usableFromInline
package struct MapNodeSlots {
  @usableFromInline package var bytes: (UInt64, UInt64)

  /// A slot's byte for a child: the child's index is added to it.
  @inlinable @inline(__always)
  package static var childTag: UInt8 { 0x80 }

  /// The table of a node with no slot in use (an empty root or a
  /// collision bucket).
  @inlinable
  package static var unused: MapNodeSlots { MapNodeSlots(bytes: (0, 0)) }

  @inlinable
  init(bytes: (UInt64, UInt64)) {
    self.bytes = bytes
  }

  /// The table of a node whose entries sit in the slots of `dataMap` and
  /// whose children sit in the slots of `nodeMap`, each run in slot order.
  ///
  /// Built without a loop, eight slots per word: each slot's bit is spread
  /// to its own byte, a multiplication sums the bytes below each one (the
  /// position of the slot's entry or child in its run), and the bytes of
  /// empty slots are masked off.
  @inlinable
  package init(dataMap: UInt32, nodeMap: UInt32) {
    let (entriesLow, entriesBelowHigh) = Self.run(UInt64(dataMap & 0xff), before: 0, tag: 1)
    let (childrenLow, childrenBelowHigh) = Self.run(UInt64(nodeMap & 0xff), before: 0, tag: Self.childTag)
    let (entriesHigh, _) = Self.run(UInt64((dataMap >> 8) & 0xff), before: entriesBelowHigh, tag: 1)
    let (childrenHigh, _) = Self.run(UInt64((nodeMap >> 8) & 0xff), before: childrenBelowHigh, tag: Self.childTag)
    bytes = ((entriesLow | childrenLow).littleEndian, (entriesHigh | childrenHigh).littleEndian)
  }

  /// The bytes of eight slots whose occupied ones are the bits of
  /// `occupied`: `tag + before + i` for the i-th occupied slot, 0 for the
  /// others; and how many slots are occupied.
  @inlinable @inline(__always)
  static func run(_ occupied: UInt64, before: UInt64, tag: UInt8) -> (bytes: UInt64, count: UInt64) {
    let ones: UInt64 = 0x0101_0101_0101_0101
    // Byte i is bit i of `occupied`, as 0 or 1.
    let spread = (((occupied &* ones) & 0x8040_2010_0804_0201) &+ 0x7f7f_7f7f_7f7f_7f7f) &>> 7 & ones
    // Byte i is the number of occupied slots up to and including slot i.
    let through = spread &* ones
    let position = through &- spread &+ (before &+ UInt64(tag)) &* ones
    return (position & (spread &* 0xff), through &>> 56)
  }

  /// This table with entry `index` added in the empty `slot`: the entries
  /// from `index` on move up one position.
  @inlinable
  package func addingEntry(at slot: Int, index: Int) -> MapNodeSlots {
    var table = self
    table.shiftEntries(above: UInt64(truncatingIfNeeded: index), up: true)
    table.setByte(UInt8(truncatingIfNeeded: index &+ 1), at: slot)
    return table
  }

  /// This table without the entry at `slot`, entry `index`: the entries
  /// after it move down one position.
  @inlinable
  package func removingEntry(at slot: Int, index: Int) -> MapNodeSlots {
    var table = self
    table.shiftEntries(above: UInt64(truncatingIfNeeded: index &+ 1), up: false)
    table.setByte(0, at: slot)
    return table
  }

  /// This table with the entry at `slot`, entry `index`, replaced by child
  /// `childIndex`: the entries after it move down one position, the
  /// children from `childIndex` on up one.
  @inlinable
  package func replacingEntry(at slot: Int, index: Int, withChild childIndex: Int) -> MapNodeSlots {
    var table = self
    table.shiftEntries(above: UInt64(truncatingIfNeeded: index &+ 1), up: false)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let from = UInt64(truncatingIfNeeded: childIndex)
    func shifted(_ stored: UInt64) -> UInt64 {
      let word = UInt64(littleEndian: stored)
      let childBytes = word & 0x8080_8080_8080_8080
      // A child byte's low bits plus 0x80 - from reach 0x80 exactly when
      // they are at least `from`.
      let above = ((((word & 0x7f7f_7f7f_7f7f_7f7f) &+ (0x80 &- from) &* ones) & childBytes) &>> 7) & ones
      return (word &+ above).littleEndian
    }
    table.bytes = (shifted(table.bytes.0), shifted(table.bytes.1))
    table.setByte(Self.childTag &+ UInt8(truncatingIfNeeded: childIndex), at: slot)
    return table
  }

  /// Moves every entry whose byte is above `tag` one position up or down,
  /// eight slots per word: child bytes (top bit set) and empty ones are
  /// left alone.
  @inlinable @inline(__always)
  mutating func shiftEntries(above tag: UInt64, up: Bool) {
    let ones: UInt64 = 0x0101_0101_0101_0101
    func shifted(_ stored: UInt64) -> UInt64 {
      let word = UInt64(littleEndian: stored)
      let entries = word & ~(((word &>> 7) & ones) &* 0xff)
      // Bytes of 1...16 plus 0x7f - tag reach 0x80 exactly when above tag.
      let above = ((entries &+ (0x7f &- tag) &* ones) &>> 7) & ones
      return (up ? word &+ above : word &- above).littleEndian
    }
    bytes = (shifted(bytes.0), shifted(bytes.1))
  }

  /// Sets the byte of `slot`.
  @inlinable @inline(__always)
  mutating func setByte(_ byte: UInt8, at slot: Int) {
    withUnsafeMutableBytes(of: &bytes) { $0[slot] = byte }
  }

  /// The byte of `slot`, for checks and tests.
  package subscript(slot slot: Int) -> UInt8 {
    withUnsafeBytes(of: bytes) { $0[slot] }
  }
}

/// A trie node: its children (positions in `nodeMap`) as plain references,
/// then its entries (positions in `dataMap`), both in the node's own
/// allocation, so a node costs one allocation and a lookup one memory access
/// per level (plus the slot's byte in the header, see `MapNodeHeader`).
/// Below the last hash level a node is a collision bucket: entries only, in
/// insertion order.
///
/// Keeping children and entries in two runs rather than as one run of
/// tagged slots keeps nodes small (a full node of 16 children is 176 bytes,
/// and entries carry no tag), lets copying retain children and copy entries
/// without asking which slot is which, and lets teardown release children
/// directly (entries of trivial types need no teardown at all). The storage
/// is counted in words: `childCount` child references from its start, then
/// `entryCount` entries from the first address after them that suits an
/// entry's alignment. Teardown thus finds the children without the entry
/// type's layout.
///
/// Writes mutate a uniquely referenced node in place where its storage
/// allows: replacing a slot, removing an entry (which leaves the storage
/// one entry larger than needed), or adding an entry where the storage has
/// room (as it has after a removal: the header counts the spare words).
/// Other writes, and every write to a shared node, build a new node.
@usableFromInline
package final class MapNode<Key: Hashable, Value>: ManagedBuffer<MapNodeHeader, UInt> {
  @usableFromInline package typealias Entry = (key: Key, value: Value)

  deinit {
    withUnsafeMutablePointers { header, words in
      let childCount = Int(header.pointee.childCount)
      if !(_isPOD(Key.self) && _isPOD(Value.self)) {
        Self.entries(after: words, childCount: childCount).deinitialize(count: Int(header.pointee.entryCount))
      }
      // Released through `Unmanaged`, which needs no type metadata (this
      // generic deinit is not specialized).
      let children = UnsafeRawPointer(words)
      var index = 0
      while index < childCount {
        let child = children.load(fromByteOffset: index &* MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
        Unmanaged<MapNode>.fromOpaque(child).release()
        index += 1
      }
    }
  }

  /// The number of words a node of `entryCount` entries and `childCount`
  /// children needs, padding included.
  @inlinable @inline(__always)
  package static func wordCapacity(entryCount: Int, childCount: Int) -> Int {
    let word = MemoryLayout<UInt>.stride
    let padding = Swift.max(0, MemoryLayout<Entry>.alignment - MemoryLayout<UInt>.alignment)
    let entryBytes = entryCount == 0 ? 0 : entryCount * MemoryLayout<Entry>.stride + padding
    return childCount + (entryBytes + word - 1) / word
  }

  /// Where the entries start, given where the storage starts.
  @inlinable @inline(__always)
  package static func entries(after words: UnsafeMutablePointer<UInt>, childCount: Int) -> UnsafeMutablePointer<Entry> {
    UnsafeMutableRawPointer(words + childCount).alignedUp(for: Entry.self).assumingMemoryBound(to: Entry.self)
  }

  /// A node of `entryCount` entries and `childCount` children whose storage
  /// `fill` initializes, all of it: the entries through its first pointer,
  /// the children through its second.
  @inlinable
  package static func make(
    dataMap: UInt32, nodeMap: UInt32, entryCount: Int, childCount: Int,
    _ fill: (UnsafeMutablePointer<Entry>, UnsafeMutablePointer<MapNode>) -> Void
  ) -> MapNode {
    make(
      header: MapNodeHeader(dataMap: dataMap, nodeMap: nodeMap, entryCount: entryCount, childCount: childCount), fill)
  }

  /// A node with `header` whose storage `fill` initializes (see the other
  /// `make`).
  @inlinable
  package static func make(
    header: MapNodeHeader, _ fill: (UnsafeMutablePointer<Entry>, UnsafeMutablePointer<MapNode>) -> Void
  ) -> MapNode {
    let entryCount = Int(header.entryCount)
    let childCount = Int(header.childCount)
    var header = header
    header.spareWords = 0
    let buffer = create(minimumCapacity: wordCapacity(entryCount: entryCount, childCount: childCount)) { _ in header }
    let node = unsafeDowncast(buffer, to: MapNode.self)
    node.withUnsafeMutablePointerToElements { words in
      let children = UnsafeMutableRawPointer(words).bindMemory(to: MapNode.self, capacity: childCount)
      let entries = UnsafeMutableRawPointer(words + childCount).alignedUp(for: Entry.self)
        .bindMemory(to: Entry.self, capacity: entryCount)
      fill(entries, children)
    }
    return node
  }

  @inlinable
  package static func empty() -> MapNode {
    make(dataMap: 0, nodeMap: 0, entryCount: 0, childCount: 0) { _, _ in }
  }

  @inlinable
  package static var maxShift: UInt64 { 64 }

  /// Hash bits used per level: each node has up to 2^levelBits slots (at
  /// most 4: the slot table has 16 bytes).
  ///
  /// A write that an earlier copy shares copies one node per level and
  /// retains every child of each copy; freeing the earlier copy releases
  /// them again. Those atomic reference-count updates are most of a
  /// one-entity write's cost, and they add up to about 2^b × 20 / b per
  /// write in a million-entry map for b bits per level: 16 slots (4 bits)
  /// need about a third fewer than 32 slots, for one more, cache-friendly level
  /// on each lookup.
  @inlinable
  package static var levelBits: UInt64 { 4 }

  /// The slot of `hash` at a level is `(hash >> shift) & slotMask`.
  @inlinable
  package static var slotMask: UInt64 { (1 << levelBits) - 1 }

  /// The header, read through its pointer (no dynamic exclusivity check).
  @inlinable package var fields: MapNodeHeader { withUnsafeMutablePointerToHeader { $0.pointee } }

  @inlinable package var dataMap: UInt32 { fields.dataMap }
  @inlinable package var nodeMap: UInt32 { fields.nodeMap }
  @inlinable package var entryCount: Int { Int(fields.entryCount) }
  @inlinable package var childCount: Int { Int(fields.childCount) }

  /// Runs `body` with the entries and the children.
  @inlinable @inline(__always)
  package func withParts<Result>(
    _ body: (UnsafeMutablePointer<Entry>, UnsafeMutablePointer<MapNode>) -> Result
  ) -> Result {
    let childCount = self.childCount
    return withUnsafeMutablePointerToElements { words in
      body(
        Self.entries(after: words, childCount: childCount),
        UnsafeMutableRawPointer(words).assumingMemoryBound(to: MapNode.self))
    }
  }

  @inlinable
  package func entry(at index: Int) -> Entry {
    withParts { entries, _ in entries[index] }
  }

  @inlinable
  package func key(at index: Int) -> Key {
    withParts { entries, _ in entries[index].key }
  }

  @inlinable
  package func child(at index: Int) -> MapNode {
    withUnsafeMutablePointerToElements { words in
      UnsafeMutableRawPointer(words).assumingMemoryBound(to: MapNode.self)[index]
    }
  }

  /// The entries, for checks and tests.
  @inlinable
  package var entries: [Entry] { (0..<entryCount).map { entry(at: $0) } }

  /// The children, for checks and tests.
  @inlinable
  package var children: [MapNode] { (0..<childCount).map { child(at: $0) } }

  /// Whether the entries start on a boundary that suits their alignment,
  /// right after the children, for checks and tests.
  package var entriesAreAligned: Bool {
    withUnsafeMutablePointerToElements { words in
      let entries = Int(bitPattern: Self.entries(after: words, childCount: childCount))
      let end = Int(bitPattern: words + childCount)
      return entries % MemoryLayout<Entry>.alignment == 0 && entries - end < MemoryLayout<Entry>.alignment
    }
  }

  /// A copy sharing the entries' values and the children.
  @inlinable
  package func copy() -> MapNode {
    let header = fields
    let entryCount = Int(header.entryCount)
    let childCount = Int(header.childCount)
    return withParts { entries, children in
      Self.make(header: header) { newEntries, newChildren in
        Self.copy(entryCount, from: entries, to: newEntries)
        Self.copy(childCount, from: children, to: newChildren)
      }
    }
  }

  /// Copies `count` elements, one at a time, so that the copy is specialized
  /// for the element type (a bulk `initialize(from:count:)` can go through
  /// the runtime's generic array copy).
  @inlinable @inline(__always)
  package static func copy<Element>(_ count: Int, from source: UnsafeMutablePointer<Element>, to target: UnsafeMutablePointer<Element>) {
    var index = 0
    while index < count {
      (target + index).initialize(to: source[index])
      index += 1
    }
  }

  /// Moves `count` elements when `consuming` (the source gives them up),
  /// copies them otherwise.
  @inlinable @inline(__always)
  package static func transfer<Element>(
    _ count: Int, from source: UnsafeMutablePointer<Element>, to target: UnsafeMutablePointer<Element>, consuming: Bool
  ) {
    if consuming { target.moveInitialize(from: source, count: count) } else { copy(count, from: source, to: target) }
  }

  /// Forgets the entries and children (whose storage was moved out or
  /// deinitialized), so that freeing this node releases nothing.
  @inlinable @inline(__always)
  package func abandonContents() {
    withUnsafeMutablePointerToHeader { header in
      header.pointee.entryCount = 0
      header.pointee.childCount = 0
    }
  }

  /// The slot of `hash` at the level of `shift`.
  @inlinable @inline(__always)
  package static func slot(_ hash: UInt64, _ shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (hash >> shift) & slotMask)
  }

  @inlinable @inline(__always)
  package static func bit(_ hash: UInt64, _ shift: UInt64) -> UInt32 {
    1 << UInt32(truncatingIfNeeded: (hash >> shift) & slotMask)
  }

  @inlinable @inline(__always)
  package static func position(_ map: UInt32, _ bit: UInt32) -> Int {
    (map & (bit &- 1)).nonzeroBitCount
  }

  @inlinable
  package func collisionIndex(of key: Key) -> Int? {
    (0..<entryCount).first { self.key(at: $0) == key }
  }

  /// The byte of `slot` in the slot table (see `MapNodeHeader`).
  @inlinable @inline(__always)
  package func slotTag(_ slot: Int) -> UInt8 {
    withUnsafeMutablePointerToHeader { header in
      UnsafeRawPointer(header).load(fromByteOffset: MapNodeHeader.slotsOffset &+ slot, as: UInt8.self)
    }
  }

  /// The value for `key`, whose hash is `hash`, in this subtree.
  ///
  /// The descent holds no reference to the nodes it passes (the caller's
  /// reference to this node keeps the whole subtree alive, and a read
  /// changes nothing), so it costs no reference counting; it is one loop
  /// with no call per level, and each level reads the slot's byte in the
  /// slot table instead of counting bits. Specialized but not inlined:
  /// inlined into a subscriber's or a reducer's code it cost more
  /// instructions there than the call it saves (callgrind, benchmark
  /// scenario 12).
  @inlinable @inline(never)
  package func find(_ key: Key, hash: UInt64) -> Value? {
    unowned(unsafe) var node = self
    var bits = hash
    var level: UInt64 = 0
    while level < Self.maxShift {
      let tag = node.slotTag(Int(truncatingIfNeeded: bits & Self.slotMask))
      if tag >= MapNodeSlots.childTag {
        let child = node.withUnsafeMutablePointerToElements { words in
          UnsafeRawPointer(words).load(
            fromByteOffset: Int(truncatingIfNeeded: tag &- MapNodeSlots.childTag) &* MemoryLayout<UInt>.stride,
            as: UnsafeRawPointer.self)
        }
        node = Unmanaged<MapNode>.fromOpaque(child).takeUnretainedValue()
        bits &>>= Self.levelBits
        level &+= Self.levelBits
        continue
      }
      if tag == 0 { return nil }
      let entry = node.withUnsafeMutablePointerToElements { words in
        Self.entries(after: words, childCount: node.childCount) + Int(truncatingIfNeeded: tag &- 1)
      }
      return entry.pointee.key == key ? entry.pointee.value : nil
    }
    return node.collisionIndex(of: key).map { node.entry(at: $0).value }
  }

  // MARK: Building changed nodes

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

  // MARK: Writing

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
