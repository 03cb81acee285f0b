// A held write through a wide branch: the copy borrows the children of
// the branch it copies (see `ListNode`), and settles later.
extension ListNode {
  /// The narrowest branch that borrows when copied: a narrower one is
  /// copied whole, its few retains cheaper than the bookkeeping.
  @inlinable @inline(__always)
  static var minimumBorrowingWidth: Int { 16 }

  /// How many children a borrowing branch of `width` children may hold
  /// references to itself before it settles (see ``settle()``): the
  /// children it replaced, whose old versions its lender keeps alive.
  ///
  /// A copy of a borrowing branch retains the children it holds, so the
  /// limit trades those retains against the retains of settling. A
  /// quarter measured best: a write by id with the previous version held
  /// cost 5,905 and 5,192 instructions at 10,000 and 100,000 rows, and
  /// a row action with one whole-state subscriber 5,988 and 4,876 at
  /// 100,000 messages and rows; with an eighth 5,968, 6,824, 7,123 and
  /// 5,035; with a half 6,475, 5,511, 6,227 and 5,143 (scenarios 14 and
  /// 11, 2026-11-28).
  @inlinable @inline(__always)
  static func ownedLimit(width: Int) -> Int { width &>> 2 }

  /// A copy of this node for a write that only replaces child pointers on
  /// its path (``PersistentList/uniqueElement(label:)``): a branch's copy
  /// shares this node's children without retaining them and retains a
  /// lender that holds them instead, this node or, when this node borrows
  /// itself, this node's lender (so that lenders never chain), retaining
  /// only the children this node holds itself. A leaf, or a branch
  /// narrower than ``minimumBorrowingWidth``, is copied as by
  /// ``copy(extra:)``.
  ///
  /// This node is only read (it may be shared and read from other
  /// threads); retaining it or its lender is atomic.
  @inlinable @inline(__always)
  func borrowingCopy() -> ListNode {
    let width = self.width
    guard !isLeaf, width >= Self.minimumBorrowingWidth, width <= UInt64.bitWidth else { return copy() }
    return borrowingBranchCopy()
  }

  /// ``borrowingCopy()`` of a branch of `minimumBorrowingWidth` to 64
  /// children.
  @inlinable @inline(never)
  func borrowingBranchCopy() -> ListNode {
    let width = self.width
    let node = Self.make(isLeaf: false, room: width)
    node.labelBase.initialize(from: labelBase, count: width)
    node.countBase.initialize(from: countBase, count: width)
    // The children's references, not retained.
    UnsafeMutableRawPointer(node.childBase).copyMemory(
      from: UnsafeRawPointer(childBase), byteCount: width &* MemoryLayout<UInt>.stride)
    let source = head
    let target = node.head
    let lender = source.pointee.lender
    if source.pointee.isBorrowing {
      _ = Unmanaged<ListNode>.fromOpaque(UnsafeRawPointer(bitPattern: lender).unsafelyUnwrapped).retain()
      let borrowed = source.pointee.borrowed
      Self.forEachChild(in: ~borrowed & Self.childMask(width: width), of: UnsafeRawPointer(childBase)) { _ = $0.retain() }
      target.pointee.lender = lender
      target.pointee.borrowed = borrowed
    } else {
      target.pointee.lender = UInt(bitPattern: Unmanaged.passRetained(self).toOpaque())
      target.pointee.borrowed = Self.childMask(width: width)
    }
    target.pointee.width = Int32(truncatingIfNeeded: width)
    target.pointee.count = source.pointee.count
    return node
  }

  /// The bits of a branch's `width` children (at most 64).
  @inlinable @inline(__always)
  static func childMask(width: Int) -> UInt64 {
    UInt64.max &>> UInt64(truncatingIfNeeded: 64 &- width)
  }

  /// Calls `body` with each child of a branch whose bit is set in `mask`,
  /// read from the branch's child run `children` without retaining it.
  @inlinable @inline(__always)
  static func forEachChild(in mask: UInt64, of children: UnsafeRawPointer, _ body: (Unmanaged<ListNode>) -> Void) {
    var mask = mask
    while mask != 0 {
      let index = mask.trailingZeroBitCount
      mask &= mask &- 1
      body(.fromOpaque(children.load(fromByteOffset: index &* MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)))
    }
  }

  /// Whether this branch borrows child `index` (its lender holds it).
  @inlinable @inline(__always)
  func borrows(_ index: Int) -> Bool {
    head.pointee.borrowed & (1 &<< UInt64(truncatingIfNeeded: index)) != 0
  }

  /// Makes this node (uniquely referenced) hold all its children: when it
  /// borrows, retains the children its lender holds for it and releases
  /// the lender. Every change to a branch other than the replacement of a
  /// child by ``unshareChild(_:)`` settles the branch first.
  @inlinable @inline(__always)
  func settle() {
    if head.pointee.isBorrowing { settleBorrowed() }
  }

  @inlinable @inline(never)
  func settleBorrowed() {
    let header = head
    // Retained before the lender goes (its teardown releases them).
    Self.forEachChild(in: header.pointee.borrowed, of: UnsafeRawPointer(childBase)) { _ = $0.retain() }
    let lender = header.pointee.lender
    header.pointee.lender = 0
    header.pointee.borrowed = 0
    Unmanaged<ListNode>.fromOpaque(UnsafeRawPointer(bitPattern: lender).unsafelyUnwrapped).release()
  }

  /// Makes `node` uniquely referenced and holding all its children, for a
  /// write that may change its structure: a shared node is copied with
  /// ``copy(extra:)`` (with room for `extra` more entries), a borrowing one
  /// settles.
  @inlinable @inline(__always)
  static func makeUniqueSettled(_ node: inout ListNode, extra: Int = 0) {
    if !isKnownUniquelyReferenced(&node) {
      node = node.copy(extra: extra)
    } else {
      node.settle()
    }
  }

  /// Replaces child `index` of this (uniquely referenced) branch, which
  /// the branch borrows (``borrows(_:)``), with a copy of its own made by
  /// ``borrowingCopy()``, for a write that replaces only child pointers on
  /// its path.
  ///
  /// A borrowed child is shared (its lender holds it), whatever its
  /// reference count says: the copy is stored without releasing the old
  /// child, which the lender keeps; the node then holds the copy. When
  /// that would make the node hold more than ``ownedLimit(width:)``
  /// children, it settles first.
  @inlinable @inline(never)
  func unshareChild(_ index: Int) {
    let header = head
    let slot = childBase + index
    let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: index)
    let borrowed = header.pointee.borrowed
    let width = self.width
    if width &- borrowed.nonzeroBitCount >= Self.ownedLimit(width: width) {
      settleBorrowed()
      slot.pointee = slot.pointee.borrowingCopy()
      return
    }
    let copy = slot.pointee.borrowingCopy()
    // The old child is not released: the lender holds it.
    slot.initialize(to: copy)
    header.pointee.borrowed = borrowed & ~bit
  }
}
