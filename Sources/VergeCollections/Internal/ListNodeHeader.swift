/// The fixed part of a ``ListNode``: how many elements the subtree holds,
/// how many entries (elements or children) the node stores and has room
/// for, whether it is a leaf, and, for a branch that borrows its children,
/// its lender and which children it holds references to itself.
///
/// The header is trivial (no reference of its own), so that a node's
/// teardown stays one generic loop: the lender is kept as the bits of an
/// opaque pointer retained and released by hand through `Unmanaged`.
@usableFromInline
struct ListNodeHeader {
  /// How many elements the node holds in all (a leaf: its width).
  @usableFromInline var count: Int
  /// How many entries the node stores.
  @usableFromInline var width: Int32
  /// How many entries its storage has room for.
  @usableFromInline var room: Int32
  /// A borrowing branch's lender (a retained `ListNode` as the bits of its
  /// opaque pointer), or 0: the branch this one was copied from (or that
  /// branch's own lender), whose children this one shares without holding
  /// references to them. See ``ListNode/borrowingCopy()``.
  @usableFromInline var lender: UInt
  /// Bit `i` is set when this node borrows child `i`: holds no reference
  /// to it, its lender does. Zero without a lender (then the node holds
  /// all its children), so that a write's descent tests one bit.
  @usableFromInline var borrowed: UInt64
  @usableFromInline let isLeaf: Bool

  /// Whether the node is a branch that borrows (has a lender).
  @inlinable @inline(__always)
  var isBorrowing: Bool { lender != 0 }

  @inlinable
  init(count: Int, width: Int, room: Int, isLeaf: Bool) {
    self.count = count
    self.width = Int32(truncatingIfNeeded: width)
    self.room = Int32(truncatingIfNeeded: room)
    self.lender = 0
    self.borrowed = 0
    self.isLeaf = isLeaf
  }
}
