extension PersistentList {
  /// Walks the leaves left to right, reading each leaf's elements in a row:
  /// a step within a leaf adds the element stride to an offset from the
  /// leaf's end, and the same addition tells the leaf's end (the offset
  /// reaches zero), so a loop over the iterator steps in three instructions
  /// per element with its own work; a step to the next leaf reads the next
  /// child of the leaf's parent; only after the parent's last leaf does the
  /// iterator descend from the root again (once per `branchCapacity`
  /// leaves). It allocates nothing.
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
    /// The end of the current leaf's elements (`nil` before the first
    /// leaf).
    @usableFromInline var end: UnsafeRawPointer?
    /// The distance from `end` of the element returned last, in bytes:
    /// negative, `-stride` once the leaf's last element is returned (and
    /// before the first leaf). A step adds the stride and goes to the next
    /// leaf when the sum is zero, so the addition that finds the element
    /// also tells the end of the leaf: a step within a leaf is an addition
    /// and a branch, with the loop's own work.
    @usableFromInline var offset: Int
    /// Where the leaves are; read only at the step to the next leaf, so a
    /// loop keeps `end` and `offset` in registers.
    @usableFromInline var walk: LeafWalk

    @inlinable
    init(root: ListNode<Element>) {
      end = nil
      offset = 0 &- MemoryLayout<Element>.stride
      walk = LeafWalk(root: root)
    }

    /// How many times the iterator descended from the root (the walk's
    /// work beyond reading leaves, which tests count).
    @inlinable var descents: Int { walk.descents }

    /// How many leaves the iterator has read.
    @inlinable var leaves: Int { walk.leaves }

    @inlinable @inline(__always)
    mutating func next() -> Element? {
      while true {
        let step = offset &+ MemoryLayout<Element>.stride
        if _fastPath(step != 0) {
          offset = step
          return (end.unsafelyUnwrapped + step).assumingMemoryBound(to: Element.self).pointee
        }
        // Only the end gives `nil`, so that the caller's loop sees an
        // element whenever the check passes and reads no more of it than it
        // uses.
        let leaf = walk.nextLeaf()
        // Leaves other than an empty root are never empty: an empty buffer
        // is the end (and the offset stays where it is, so that every later
        // call ends too).
        guard leaf.count > 0 else { return nil }
        // The first element is read by the step above, the one way to an
        // element, so that a loop reads every element at one address form.
        // Checked, so that the optimizer knows the product is not zero.
        let stride = leaf.count * MemoryLayout<Element>.stride
        end = UnsafeRawPointer(leaf.baseAddress.unsafelyUnwrapped) + stride
        offset = 0 &- stride &- MemoryLayout<Element>.stride
      }
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
    /// How many leaves the walk has returned.
    @usableFromInline var leaves: Int

    @inlinable
    init(root: ListNode<Element>) {
      self.root = root
      siblings = nil
      siblingCount = 0
      child = 0
      siblingsEnd = 0
      descents = 0
      leaves = 0
    }

    /// The next leaf's elements (the first leaf's on the first call), or an
    /// empty buffer at the end.
    @inlinable @inline(__always)
    mutating func nextLeaf() -> UnsafeBufferPointer<Element> {
      let next = child &+ 1
      if _fastPath(next < siblingCount) {
        child = next
        leaves &+= 1
        // See `root`: the storage outlives the walk and does not change.
        let leaf = siblings.unsafelyUnwrapped[next]
        return UnsafeBufferPointer(start: leaf.elementBase, count: leaf.width)
      }
      // The end is told inline: a loop that ends calls nothing.
      let total = root.count
      if siblingsEnd >= total { return UnsafeBufferPointer(start: nil, count: 0) }
      if siblingsEnd == 0 { return firstLeaf(total: total) }
      return nextBranch()
    }

    /// The first leaf: the descent along the first children, inline (a
    /// short list's iteration is mostly this and its few leaves). The
    /// descents borrow each node as ``PersistentList/element(label:)``
    /// does; with `takeUnretainedValue()`, a `for … in` over 100 rows cost
    /// 591 instructions instead of 486, and 3.77 per element instead of
    /// 3.69 at 10,000 rows (scenario 14, 2026-11-28).
    @inlinable @inline(__always)
    mutating func firstLeaf(total: Int) -> UnsafeBufferPointer<Element> {
      descents &+= 1
      leaves &+= 1
      siblingsEnd = total
      var node = Unmanaged.passUnretained(root)
      while true {
        let next: Unmanaged<ListNode<Element>>? = node._withUnsafeGuaranteedRef { node in
          guard !node.isLeaf else { return nil }
          // See `root`: the storage outlives the walk and does not change.
          siblings = UnsafePointer(node.childBase)
          siblingCount = node.width
          child = 0
          siblingsEnd = node.count
          return Unmanaged.passUnretained(node.childBase[0])
        }
        guard let next else { break }
        node = next
      }
      return node._withUnsafeGuaranteedRef { UnsafeBufferPointer(start: $0.elementBase, count: $0.width) }
    }

    /// The first leaf under the next branch above leaves, or an empty
    /// buffer at the end: once per `branchCapacity` leaves.
    ///
    /// The descent holds no counted reference (the list keeps every node
    /// alive), so a loop does no reference counting of its own. Inlined,
    /// so that the loop calls nothing and keeps the walk in registers: out
    /// of line, a `for … in` over 100 rows cost 486 instructions instead of
    /// 459, and 3.69 per element instead of 3.58 at 10,000 rows (scenario
    /// 14, 2026-11-28).
    @inlinable @inline(__always)
    mutating func nextBranch() -> UnsafeBufferPointer<Element> {
      let start = siblingsEnd
      let total = root.count
      guard start < total else { return UnsafeBufferPointer(start: nil, count: 0) }
      descents &+= 1
      leaves &+= 1
      var node = Unmanaged.passUnretained(root)
      var offset = start
      siblings = nil
      siblingCount = 0
      child = 0
      siblingsEnd = total
      while true {
        let next: Unmanaged<ListNode<Element>>? = node._withUnsafeGuaranteedRef { node in
          guard !node.isLeaf else { return nil }
          // The first leaf, and a branch that starts where its parent's
          // child starts, begin at their first child: no search.
          let (index, inner) = offset == 0 ? (0, 0) : node.child(containing: offset)
          // See `root`: the storage outlives the walk and does not change.
          siblings = UnsafePointer(node.childBase)
          siblingCount = node.width
          child = index
          siblingsEnd = start &- offset &+ node.count
          offset = inner
          return Unmanaged.passUnretained(node.childBase[index])
        }
        guard let next else { break }
        node = next
      }
      return node._withUnsafeGuaranteedRef { UnsafeBufferPointer(start: $0.elementBase, count: $0.width) }
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
