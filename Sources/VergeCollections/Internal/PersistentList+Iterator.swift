extension PersistentList {
  /// Walks the leaves left to right, reading each leaf's elements in a row:
  /// a step within a leaf compares two pointers and moves one, as a
  /// contiguous array's iterator does; a step to the next leaf reads the
  /// next child of the leaf's parent; only after the parent's last leaf does
  /// the iterator descend from the root again (once per `branchCapacity`
  /// leaves), in an out-of-line step. It allocates nothing.
  ///
  /// Every leaf sits at the same depth, so the branch above a leaf holds
  /// only leaves.
  ///
  /// The iterator holds no counted reference: whoever makes it holds the
  /// list for as long as it is used (see ``LeafWalk/root``). The list is
  /// then shared while it is read, so a write to it copies every node on
  /// its path instead of changing one in place: every node and every leaf's
  /// element storage the iterator points into stays alive and unchanged.
  @usableFromInline
  struct Iterator {
    /// The next element of the current leaf (`nil` before the first leaf).
    @usableFromInline var current: UnsafePointer<Element>?
    /// The end of the current leaf's elements.
    @usableFromInline var end: UnsafePointer<Element>?
    /// Where the leaves are; read only at the step to the next leaf, so a
    /// loop keeps `current` and `end` in registers.
    @usableFromInline var walk: LeafWalk

    @inlinable
    init(root: ListNode<Element>) {
      current = nil
      end = nil
      walk = LeafWalk(root: root)
    }

    /// How many times the iterator descended from the root (the walk's
    /// work beyond reading leaves, which tests count).
    @inlinable var descents: Int { walk.descents }

    @inlinable @inline(__always)
    mutating func next() -> Element? {
      // Only the end gives `nil`, so that the caller's loop sees an element
      // whenever the check passes and reads no more of it than it uses.
      if _slowPath(current == end) {
        let leaf = walk.nextLeaf()
        // Leaves other than an empty root are never empty: an empty buffer
        // is the end.
        guard leaf.count > 0 else { return nil }
        let start = leaf.baseAddress.unsafelyUnwrapped
        current = start
        end = start + leaf.count
      }
      let element = current.unsafelyUnwrapped
      current = element + 1
      return element.pointee
    }
  }

  /// The leaves of a list, in order: the parent's children buffer and the
  /// index of the current leaf among them.
  @usableFromInline
  struct LeafWalk {
    /// The root, which the walk does not keep alive (see ``Iterator``).
    /// Holding no counted reference, the walk is a plain value.
    @usableFromInline unowned(unsafe) var root: ListNode<Element>
    /// The children of the branch above the current leaf (`nil` when the
    /// root is a leaf or before the first descent): their storage, kept
    /// alive and unchanged like the leaves', so that stepping to the next
    /// leaf is one load.
    @usableFromInline var siblings: UnsafePointer<ListNode<Element>>?
    /// How many children `siblings` holds.
    @usableFromInline var siblingCount: Int
    /// The current leaf's index among `siblings`.
    @usableFromInline var child: Int
    /// The list position past the last element under `siblings` (0 before
    /// the first descent): where the next descent starts.
    @usableFromInline var siblingsEnd: Int
    /// How many times the walk descended from the root.
    @usableFromInline var descents: Int

    @inlinable
    init(root: ListNode<Element>) {
      self.root = root
      siblings = nil
      siblingCount = 0
      child = 0
      siblingsEnd = 0
      descents = 0
    }

    /// The next leaf's elements (the first leaf's on the first call), or an
    /// empty buffer at the end.
    @inlinable @inline(__always)
    mutating func nextLeaf() -> UnsafeBufferPointer<Element> {
      let next = child &+ 1
      if _fastPath(next < siblingCount) {
        child = next
        // See `root`: the storage outlives the walk and does not change.
        let leaf = siblings.unsafelyUnwrapped[next]
        return UnsafeBufferPointer(start: leaf.elementBase, count: leaf.width)
      }
      return nextBranch()
    }

    /// The first leaf under the next branch above leaves, or an empty
    /// buffer at the end: out of line, once per `branchCapacity` leaves.
    @inlinable @inline(never)
    mutating func nextBranch() -> UnsafeBufferPointer<Element> {
      let start = siblingsEnd
      guard start < root.count else { return UnsafeBufferPointer(start: nil, count: 0) }
      descents &+= 1
      var node = root
      var offset = start
      siblings = nil
      siblingCount = 0
      child = 0
      siblingsEnd = root.count
      while !node.isLeaf {
        let (index, inner) = node.child(containing: offset)
        // See `root`: the storage outlives the walk and does not change.
        siblings = UnsafePointer(node.childBase)
        siblingCount = node.width
        child = index
        siblingsEnd = start &- offset &+ node.count
        node = node.childBase[index]
        offset = inner
      }
      return UnsafeBufferPointer(start: node.elementBase, count: node.width)
    }
  }

  /// An iterator over the elements; the list must outlive it (see
  /// ``Iterator``).
  @inlinable
  func makeIterator() -> Iterator {
    Iterator(root: root)
  }

  /// A walk over the leaves, for a loop over each leaf's elements (which
  /// the compiler unrolls, as it does a loop over an array); the list must
  /// outlive it (see ``Iterator``).
  @inlinable
  func leafWalk() -> LeafWalk {
    LeafWalk(root: root)
  }

  /// Calls `body` with each leaf's elements, in order: the fast way to read
  /// every element.
  ///
  /// - Complexity: O(n), with O(1) work per leaf beyond `body`.
  @inlinable
  func forEachBuffer<Failure: Error>(_ body: (UnsafeBufferPointer<Element>) throws(Failure) -> Void) throws(Failure) {
    var walk = leafWalk()
    while true {
      let leaf = walk.nextLeaf()
      if leaf.isEmpty { return }
      try body(leaf)
    }
  }
}
