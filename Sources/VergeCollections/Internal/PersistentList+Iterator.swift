extension PersistentList {
  /// Walks the leaves left to right, reading each leaf's elements in a row:
  /// a step within a leaf adds the element stride to an offset from the
  /// leaf's end, and the same addition tells the leaf's end (the offset
  /// reaches zero), so a loop over the iterator steps in three instructions
  /// per element with its own work; a step to the next leaf reads the next
  /// child of the leaf's parent; only after the parent's last leaf does the
  /// iterator descend from the root again (once per `branchCapacity`
  /// leaves). The first leaf is found when the iterator is made. It
  /// allocates nothing.
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
    /// The end of the current leaf's elements.
    @usableFromInline var end: UnsafeRawPointer
    /// The distance from `end` of the element returned last, in bytes:
    /// negative, `-stride` once the leaf's last element is returned (one
    /// stride before the leaf's first element before it is returned). A
    /// step adds the stride and goes to the next leaf when the sum is
    /// zero, so the addition that finds the element also tells the end of
    /// the leaf: a step within a leaf is an addition and a branch, with the
    /// loop's own work.
    @usableFromInline var offset: Int
    /// Where the leaves are; read only at the step to the next leaf, so a
    /// loop keeps `end` and `offset` in registers.
    @usableFromInline var walk: LeafWalk

    @inlinable @inline(__always)
    init(root: ListNode<Element>) {
      walk = LeafWalk(root: root)
      // The first leaf is found here, where it always is, not by the
      // loop's step to a next leaf: that step then neither tests for a
      // first descent nor carries the values a descent sets into every
      // step (a register copy per leaf). A `for … in` over 100 rows cost
      // 431 instructions instead of 453, and 3.46 per element instead of
      // 3.52 at 10,000 rows (scenario 14, 2026-11-28). An empty list's
      // root is an empty leaf: the first step ends.
      let (end, bytes) = Self.span(of: walk.firstLeaf(total: root.count))
      self.end = end
      offset = 0 &- bytes &- MemoryLayout<Element>.stride
    }

    /// The end of `leaf`'s elements, and their size in bytes.
    @inlinable @inline(__always)
    static func span(of leaf: Unmanaged<ListNode<Element>>) -> (end: UnsafeRawPointer, bytes: Int) {
      let leaf = leaf.takeUnretainedValue()
      let bytes = leaf.width &* MemoryLayout<Element>.stride
      return (UnsafeRawPointer(leaf.elementBase) + bytes, bytes)
    }

    /// How many times the iterator descended from the root (the walk's
    /// work beyond reading leaves, which tests count).
    @inlinable var descents: Int { walk.descents }

    /// How many leaves the iterator has read.
    @inlinable var leaves: Int { walk.leaves }

    @inlinable @inline(__always)
    mutating func next() -> Element? {
      var step = offset &+ MemoryLayout<Element>.stride
      if _slowPath(step == 0) {
        // Only the end gives `nil`, so that the caller's loop sees an
        // element whenever the check passes and reads no more of it than it
        // uses. The offset stays where it is at the end, so that every
        // later call ends too.
        guard let leaf = walk.nextLeafAfterFirst() else { return nil }
        // The walk gives a leaf, never an empty one, so the step to it
        // needs no test of its own: it lands on the one read below, as the
        // step within a leaf does (a loop reads every element at one
        // address form; a second read here for the leaf's first element
        // made the loop's own address a computation per element: 5.52
        // instructions per element over 100 rows). Looping back to the
        // test above, as the step did, tested each leaf again: a `for … in`
        // over 100 rows cost 459 instructions instead of 453.
        let (end, bytes) = Self.span(of: leaf)
        self.end = end
        step = 0 &- bytes
      }
      offset = step
      return (end + step).assumingMemoryBound(to: Element.self).pointee
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
    ///
    /// The address of the next child and the end of the children instead
    /// of these three made a `for … in` over 100 rows 2 instructions
    /// cheaper, but `filter`'s loop kept one more register across the
    /// calls that append a kept element, 2 instructions per kept element.
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
      // The steps of ``nextLeafAfterFirst()`` (and the first leaf), each
      // making its own buffer: a loop over the leaves' buffers tests only
      // for the empty one at the end (through `nextLeafAfterFirst`, a loop
      // over 100,000 elements cost about 50 instructions more).
      let next = child &+ 1
      if _fastPath(next < siblingCount) {
        child = next
        leaves &+= 1
        // See `root`: the storage outlives the walk and does not change.
        return Self.elements(of: Unmanaged.passUnretained(siblings.unsafelyUnwrapped[next]))
      }
      let total = root.count
      if siblingsEnd >= total { return UnsafeBufferPointer(start: nil, count: 0) }
      if siblingsEnd == 0 { return Self.elements(of: firstLeaf(total: total)) }
      guard let leaf = nextBranch() else { return UnsafeBufferPointer(start: nil, count: 0) }
      return Self.elements(of: leaf)
    }

    /// The elements of `leaf`.
    @inlinable @inline(__always)
    static func elements(of leaf: Unmanaged<ListNode<Element>>) -> UnsafeBufferPointer<Element> {
      let leaf = leaf.takeUnretainedValue()
      return UnsafeBufferPointer(start: leaf.elementBase, count: leaf.width)
    }

    /// The leaf after the current one, never empty, or `nil` at the end;
    /// call once ``firstLeaf(total:)`` has been taken (as ``Iterator``
    /// does when it is made). It holds no reference (see `root`). A step to
    /// a sibling loads a node, which is never `nil`, so only the walk's
    /// rare paths return a value a caller must test.
    @inlinable @inline(__always)
    mutating func nextLeafAfterFirst() -> Unmanaged<ListNode<Element>>? {
      let next = child &+ 1
      if _fastPath(next < siblingCount) {
        child = next
        leaves &+= 1
        // See `root`: the storage outlives the walk and does not change.
        return Unmanaged.passUnretained(siblings.unsafelyUnwrapped[next])
      }
      // The end is told inline: a loop that ends calls nothing. Only an
      // empty list's root is an empty leaf, and its count is 0.
      if siblingsEnd >= root.count { return nil }
      return nextBranch()
    }

    /// The first leaf: the descent along the first children, inline (a
    /// short list's iteration is mostly this and its few leaves). The
    /// descents borrow each node as ``PersistentList/element(label:)``
    /// does; with `takeUnretainedValue()`, a `for … in` over 100 rows cost
    /// 591 instructions instead of 486, and 3.77 per element instead of
    /// 3.69 at 10,000 rows (scenario 14, 2026-11-28).
    @inlinable @inline(__always)
    mutating func firstLeaf(total: Int) -> Unmanaged<ListNode<Element>> {
      descents &+= 1
      // An empty list's root, an empty leaf, is not a leaf read.
      if total > 0 { leaves &+= 1 }
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
      return node
    }

    /// The first leaf under the next branch above leaves, or `nil` at the
    /// end: once per `branchCapacity` leaves.
    ///
    /// The descent holds no counted reference (the list keeps every node
    /// alive), so a loop does no reference counting of its own. Inlined,
    /// so that the loop calls nothing and keeps the walk in registers: out
    /// of line, a `for … in` over 100 rows cost 486 instructions instead of
    /// 459, and 3.69 per element instead of 3.58 at 10,000 rows (scenario
    /// 14, 2026-11-28).
    @inlinable @inline(__always)
    mutating func nextBranch() -> Unmanaged<ListNode<Element>>? {
      let start = siblingsEnd
      let total = root.count
      guard start < total else { return nil }
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
      return node
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
