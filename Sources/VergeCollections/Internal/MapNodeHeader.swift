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

  /// The byte offset of the slot table in the header. A lookup reads a
  /// slot's byte at this offset from the header's address: a read, which
  /// `withUnsafeBytes(of: &header.pointee.slots)` would not be (an `inout`
  /// access, which the Thread Sanitizer counts as a write by every reader).
  @inlinable @inline(__always)
  package static var slotsOffset: Int { MemoryLayout<MapNodeHeader>.offset(of: \.slots)! }
}
