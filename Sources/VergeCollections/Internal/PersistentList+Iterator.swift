extension PersistentList {
  /// Walks the leaves left to right, reading each leaf's elements in a row:
  /// a step within a leaf is a bounds check and a load, as in an `Array`;
  /// a step to the next leaf is one index into the leaf's parent; only after
  /// the parent's last leaf does the iterator descend from the root again
  /// (once per `branchCapacity` leaves). It allocates nothing.
  ///
  /// Every leaf sits at the same depth, so the branch above a leaf holds
  /// only leaves.
  @usableFromInline
  struct Iterator {
    /// The root, which the iterator does not keep alive: whoever makes the
    /// iterator holds the list for as long as it is used. The list is then
    /// shared while it is read, so a write to it copies every node on its
    /// path instead of changing one in place (a node reachable from a
    /// shared node is itself reached twice once its parent is copied):
    /// every node under the root, and every leaf's element storage, stays
    /// alive and unchanged, and no reference here needs counting. Holding
    /// no counted reference, the iterator is a plain value the compiler
    /// keeps in registers through a loop.
    @usableFromInline unowned(unsafe) var root: ListNode<Element>
    /// The current leaf's elements.
    @usableFromInline var buffer: UnsafeBufferPointer<Element>
    /// The position of the next element in ``buffer``.
    @usableFromInline var position: Int
    /// The children of the branch above the current leaf (empty when the
    /// root is a leaf): its storage, kept alive and unchanged by `root`
    /// like the leaves', so that stepping to the next leaf is one load.
    @usableFromInline var siblings: UnsafeBufferPointer<ListNode<Element>>
    /// The current leaf's index among `siblings`.
    @usableFromInline var child: Int
    /// The list position of the current leaf's first element.
    @usableFromInline var leafStart: Int
    /// How many times the iterator descended from the root (the walk's
    /// work beyond reading leaves, which tests count).
    @usableFromInline var descents: Int

    @inlinable
    init(root: ListNode<Element>) {
      self.root = root
      buffer = UnsafeBufferPointer(start: nil, count: 0)
      position = 0
      siblings = UnsafeBufferPointer(start: nil, count: 0)
      child = 0
      leafStart = 0
      descents = 0
      self = Self.started(self)
    }

    /// The iterator at the first element (see ``advanced(_:)`` for why it
    /// goes by value).
    @inlinable @inline(never)
    static func started(_ iterator: Self) -> Self {
      var iterator = iterator
      iterator.descend(to: 0)
      return iterator
    }

    /// Makes the leaf holding list position `start` (the first position of
    /// a leaf, or the count) the current one.
    @inlinable
    mutating func descend(to start: Int) {
      descents &+= 1
      var node = root
      var offset = start
      siblings = UnsafeBufferPointer(start: nil, count: 0)
      child = 0
      while !node.isLeaf {
        let (index, inner) = node.child(containing: offset)
        // See `root`: the storage outlives the iterator and does not change.
        siblings = node.children.withUnsafeBufferPointer { $0 }
        child = index
        node = node.children[index]
        offset = inner
      }
      enter(node, start: start &- offset)
    }

    @inlinable
    mutating func enter(_ leaf: ListNode<Element>, start: Int) {
      // See `root`: the storage outlives the iterator and does not change.
      buffer = leaf.elements.withUnsafeBufferPointer { $0 }
      position = 0
      leafStart = start
    }

    @inlinable @inline(__always)
    mutating func next() -> Element? {
      // Only the end gives `nil`, so that the caller's loop sees an element
      // whenever the check passes and reads no more of it than it uses.
      if _slowPath(position == buffer.count) {
        // The step to the next leaf takes and returns the iterator by value:
        // the caller's iterator never has its address taken, so its
        // position and buffer stay in registers through the loop.
        self = Self.advanced(self)
        if position == buffer.count { return nil }
      }
      defer { position &+= 1 }
      return buffer[position]
    }

    /// The iterator at the next leaf's first element, or at the end.
    @inlinable @inline(never)
    static func advanced(_ iterator: Self) -> Self {
      var iterator = iterator
      _ = iterator.step()
      return iterator
    }

    /// Moves to the next leaf, at its first element; `false` at the end.
    @inlinable @inline(never)
    mutating func advance() -> Bool {
      step()
    }

    /// ``advance()``'s work, inlined into ``advanced(_:)`` so that a step
    /// to the next leaf is one call.
    @inlinable @inline(__always)
    mutating func step() -> Bool {
      let start = leafStart &+ buffer.count
      guard start < root.count else { return false }
      if child &+ 1 < siblings.count {
        child &+= 1
        enter(siblings[child], start: start)
      } else {
        descend(to: start)
      }
      // Leaves other than an empty root are never empty.
      return true
    }

    /// Calls `body` with the rest of the current leaf's elements and with
    /// every later leaf's, in order, then leaves the iterator at the end.
    @inlinable
    mutating func forEachRemainingBuffer<Failure: Error>(
      _ body: (UnsafeBufferPointer<Element>) throws(Failure) -> Void
    ) throws(Failure) {
      while true {
        if position < buffer.count {
          let rest = UnsafeBufferPointer(rebasing: buffer[position...])
          position = buffer.count
          try body(rest)
        }
        guard advance() else { return }
      }
    }
  }

  /// An iterator over the elements; the list must outlive it (see
  /// `Iterator.root`).
  @inlinable
  func makeIterator() -> Iterator {
    Iterator(root: root)
  }

  /// Calls `body` with each leaf's elements, in order: the fast way to read
  /// every element.
  ///
  /// - Complexity: O(n), with O(1) work per leaf beyond `body`.
  @inlinable
  func forEachBuffer<Failure: Error>(_ body: (UnsafeBufferPointer<Element>) throws(Failure) -> Void) throws(Failure) {
    var iterator = makeIterator()
    try iterator.forEachRemainingBuffer(body)
  }
}
