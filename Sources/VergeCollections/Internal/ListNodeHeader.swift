/// The fixed part of a ``ListNode``: how many elements the subtree holds,
/// how many entries (elements or children) the node stores and has room
/// for, and whether it is a leaf.
@usableFromInline
struct ListNodeHeader {
  /// How many elements the node holds in all (a leaf: its width).
  @usableFromInline var count: Int
  /// How many entries the node stores.
  @usableFromInline var width: Int32
  /// How many entries its storage has room for.
  @usableFromInline var room: Int32
  @usableFromInline let isLeaf: Bool

  @inlinable
  init(count: Int, width: Int, room: Int, isLeaf: Bool) {
    self.count = count
    self.width = Int32(truncatingIfNeeded: width)
    self.room = Int32(truncatingIfNeeded: room)
    self.isLeaf = isLeaf
  }
}
