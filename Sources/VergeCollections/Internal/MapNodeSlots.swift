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
