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
      // `_isPOD`: trivial entries (an `IdentifiedArray`'s ids and labels)
      // need no teardown. Deinitialized anyway, through the run time,
      // building from an array cost 677, 822 and 833 instructions per
      // element at 100, 10,000 and 100,000 rows instead of 602, 734 and
      // 744, and a removal and re-insertion 3,264, 4,974 and 5,154 instead
      // of 3,095, 4,655 and 4,855 (scenario 14, 2026-11-28).
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
    let end = UnsafeMutableRawPointer(words + childCount)
    // Children end on a word boundary, which suits most entries (an
    // `IdentifiedArray`'s id and label): no rounding up, two instructions
    // fewer per lookup.
    if MemoryLayout<Entry>.alignment <= MemoryLayout<UInt>.alignment {
      return end.assumingMemoryBound(to: Entry.self)
    }
    return end.alignedUp(for: Entry.self).assumingMemoryBound(to: Entry.self)
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
  @inlinable package var childCount: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.childCount) } }

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

  /// The value for `key`, whose hash is `hash`, in the subtree of `root`.
  ///
  /// The descent holds no reference to the nodes it passes (the caller's
  /// reference to `root` keeps the whole subtree alive, and a read changes
  /// nothing), so it costs no reference counting; it is one loop with no
  /// call per level, and each level reads the slot's byte in the slot table
  /// instead of counting bits. It is specialized but not inlined: inlined
  /// into a subscriber's or a reducer's code it cost more instructions there
  /// than the call it saves (callgrind, benchmark scenario 12). The node is
  /// an ordinary argument, not `self`, whose register the calling
  /// convention makes the callee save, and the rare collision path is a
  /// call of its own: the descent saves no register.
  @inlinable @inline(never)
  package static func find(_ key: Key, hash: UInt64, in root: MapNode) -> Value? {
    unowned(unsafe) var node = root
    var bits = hash
    var level: UInt64 = 0
    while level < Self.maxShift {
      let tag = node.slotTag(Int(truncatingIfNeeded: bits & Self.slotMask))
      if tag >= MapNodeSlots.childTag {
        // The child's index is taken off in `Int`, not `UInt8`: the
        // subtraction then folds into the load's displacement, two
        // instructions fewer per level than a wrapping byte subtraction
        // (which has to be masked).
        let child = node.withUnsafeMutablePointerToElements { words in
          UnsafeRawPointer(words).load(
            fromByteOffset: (Int(tag) &- Int(MapNodeSlots.childTag)) &* MemoryLayout<UInt>.stride,
            as: UnsafeRawPointer.self)
        }
        node = Unmanaged<MapNode>.fromOpaque(child).takeUnretainedValue()
        bits &>>= Self.levelBits
        level &+= Self.levelBits
        continue
      }
      if tag == 0 { return nil }
      let entry = node.withUnsafeMutablePointers { header, words in
        Self.entries(after: words, childCount: Int(header.pointee.childCount)) + Int(truncatingIfNeeded: tag &- 1)
      }
      return entry.pointee.key == key ? entry.pointee.value : nil
    }
    // The node is kept alive by the caller's reference to the root: passed
    // unretained, it costs the lookup no reference counting.
    return collisionValue(for: key, in: Unmanaged.passUnretained(node))
  }

  /// The value for `key` in the collision node `node`, or `nil`: out of
  /// line, and given the node as an ordinary argument, so that
  /// ``find(_:hash:in:)`` saves no register for a path that almost no
  /// lookup takes.
  @inlinable @inline(never)
  package static func collisionValue(for key: Key, in node: Unmanaged<MapNode>) -> Value? {
    let node = node.takeUnretainedValue()
    return node.collisionIndex(of: key).map { node.entry(at: $0).value }
  }
}
