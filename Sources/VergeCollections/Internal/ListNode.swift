/// A node of a ``PersistentList``: a leaf holding up to `leafCapacity`
/// elements with their order labels, or a branch holding up to
/// `branchCapacity` children with, per child, its element count and its
/// greatest label.
///
/// A node is one allocation: the header (see ``ListNodeHeader``), then its
/// labels, then a leaf's elements or a branch's counts and children, each
/// run with room for ``room`` entries. So a write while an older copy is
/// held allocates one block per node on its path and copies each node's
/// runs with code specialized for the element type (a branch's children
/// one retain each, a leaf's trivial elements as one block of memory), and
/// freeing the older copy frees one block per node, releasing a branch's
/// children in a loop of the node's own (a leaf's elements of trivial types
/// need no teardown at all).
///
/// Nodes are shared between copies of a list. A write copies a node only
/// when it is shared (`isKnownUniquelyReferenced`); a uniquely referenced
/// node is mutated in place, and reallocated with more room when an
/// insertion needs it.
///
/// A write by id or position, which only replaces one child pointer per
/// branch on its path, copies a shared branch with ``borrowingCopy()``:
/// the copy shares the children without retaining them and retains a
/// lender that holds them (the branch copied, or that branch's lender, so
/// lenders never chain), marking in ``ListNodeHeader/borrowed`` the
/// children it does not hold. A borrowed child counts as shared whatever
/// its reference count; a node never writes its lender. A borrowing branch
/// keeps its lender's replaced children alive, so it settles (holds all its
/// children, drops its lender) once it holds a quarter of them itself, and
/// before any other change to its children (``settle()``).
///
/// The runs are read and written through pointers (``labels``,
/// ``elements``, ``counts``, ``children``), valid while the node is alive:
/// every node the code reaches is kept alive by its parent or by the list
/// that holds the root.
@usableFromInline
final class ListNode<Element>: ManagedBuffer<ListNodeHeader, UInt64> {
  deinit {
    withUnsafeMutablePointers { header, words in
      let width = Int(header.pointee.width)
      let room = Int(header.pointee.room)
      if header.pointee.isLeaf {
        // `_isPOD`: trivial elements need no teardown. Deinitialized
        // anyway, through the run time's generic array destroy, a row
        // action with one whole-state subscriber on two-`Int` rows cost
        // 2,943 and 10,059 instructions at 100 and 100,000 rows instead
        // of 2,899 and 10,014 (scenario 11, 2026-11-28).
        if !_isPOD(Element.self) { elementBase.deinitialize(count: width) }
        return
      }
      // Released through `Unmanaged`, which needs no type metadata (this
      // generic deinit is not specialized).
      let children = UnsafeRawPointer(words + 2 &* room)
      if header.pointee.isBorrowing {
        let lender = header.pointee.lender
        // A borrowing branch releases only the children it holds, then its
        // lender (which holds the others).
        Self.forEachChild(in: ~header.pointee.borrowed & Self.childMask(width: width), of: children) { $0.release() }
        Unmanaged<ListNode>.fromOpaque(UnsafeRawPointer(bitPattern: lender).unsafelyUnwrapped).release()
        return
      }
      var index = 0
      while index < width {
        let child = children.load(fromByteOffset: index &* MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
        Unmanaged<ListNode>.fromOpaque(child).release()
        index &+= 1
      }
    }
  }

  // MARK: Storage

  /// An empty node with room for `room` entries.
  @inlinable
  static func make(isLeaf: Bool, room: Int) -> ListNode {
    // The words of storage: the labels, then a branch's counts and children
    // or a leaf's elements (with padding for their alignment).
    var words = room &* 3
    if isLeaf {
      let padding = Swift.max(0, MemoryLayout<Element>.alignment &- MemoryLayout<UInt64>.alignment)
      let bytes = room &* MemoryLayout<Element>.stride &+ padding
      words = room &+ (bytes &+ 7) &>> 3
    }
    let buffer = create(minimumCapacity: words) { _ in
      ListNodeHeader(count: 0, width: 0, room: room, isLeaf: isLeaf)
    }
    return unsafeDowncast(buffer, to: ListNode.self)
  }

  /// An empty leaf with no room (the root of an empty list).
  @inlinable
  static func emptyLeaf() -> ListNode {
    make(isLeaf: true, room: 0)
  }

  /// A leaf holding `elements` labelled `labels` (as many of each).
  @inlinable
  static func leaf(labels: some Collection<UInt64>, elements: some Collection<Element>) -> ListNode {
    let node = make(isLeaf: true, room: elements.count)
    var index = 0
    for (label, element) in zip(labels, elements) {
      (node.labelBase + index).initialize(to: label)
      (node.elementBase + index).initialize(to: element)
      index &+= 1
    }
    node.head.pointee.width = Int32(truncatingIfNeeded: index)
    node.head.pointee.count = index
    return node
  }

  /// A leaf holding copies of `count` elements from `elements`, labelled
  /// `first`, `first + stride`, … (a list built afresh).
  @inlinable
  static func leaf(copying elements: UnsafePointer<Element>, count: Int, first: UInt64, stride: UInt64) -> ListNode {
    let node = make(isLeaf: true, room: count)
    let labels = node.labelBase
    var index = 0
    while index < count {
      (labels + index).initialize(to: first &+ stride &* UInt64(truncatingIfNeeded: index))
      index &+= 1
    }
    copy(count, from: elements, to: node.elementBase)
    node.head.pointee.width = Int32(truncatingIfNeeded: count)
    node.head.pointee.count = count
    return node
  }

  /// A branch holding `children`, which must not be empty.
  @inlinable
  static func branch(children: some Collection<ListNode>) -> ListNode {
    let node = make(isLeaf: false, room: children.count)
    var index = 0
    var total = 0
    for child in children {
      (node.labelBase + index).initialize(to: child.maxLabel)
      (node.countBase + index).initialize(to: child.count)
      (node.childBase + index).initialize(to: child)
      total &+= child.count
      index &+= 1
    }
    node.head.pointee.width = Int32(truncatingIfNeeded: index)
    node.head.pointee.count = total
    return node
  }

  /// The header, through its pointer (no dynamic exclusivity check).
  @inlinable @inline(__always)
  var head: UnsafeMutablePointer<ListNodeHeader> { withUnsafeMutablePointerToHeader { $0 } }

  /// How many elements the node holds in all.
  @inlinable @inline(__always)
  var count: Int {
    get { head.pointee.count }
    set { head.pointee.count = newValue }
  }

  /// How many entries (elements or children) the node holds.
  @inlinable @inline(__always)
  var width: Int { Int(head.pointee.width) }

  /// How many entries the node's storage has room for.
  @inlinable @inline(__always)
  var room: Int { Int(head.pointee.room) }

  @inlinable @inline(__always)
  var isLeaf: Bool { head.pointee.isLeaf }

  @inlinable @inline(__always)
  var labelBase: UnsafeMutablePointer<UInt64> { withUnsafeMutablePointerToElements { $0 } }

  /// A leaf's elements (only meaningful for a leaf), after its labels.
  @inlinable @inline(__always)
  var elementBase: UnsafeMutablePointer<Element> {
    let end = UnsafeMutableRawPointer(labelBase + room)
    // The labels end on a word boundary, which suits most elements.
    if MemoryLayout<Element>.alignment <= MemoryLayout<UInt64>.alignment {
      return end.assumingMemoryBound(to: Element.self)
    }
    return end.alignedUp(for: Element.self).assumingMemoryBound(to: Element.self)
  }

  /// A branch's child counts (only meaningful for a branch).
  @inlinable @inline(__always)
  var countBase: UnsafeMutablePointer<Int> {
    UnsafeMutableRawPointer(labelBase + room).assumingMemoryBound(to: Int.self)
  }

  /// A branch's children (only meaningful for a branch).
  @inlinable @inline(__always)
  var childBase: UnsafeMutablePointer<ListNode> {
    UnsafeMutableRawPointer(labelBase + 2 &* room).assumingMemoryBound(to: ListNode.self)
  }

  /// A leaf: the label of each element. A branch: the greatest label under
  /// each child.
  @inlinable @inline(__always)
  var labels: UnsafeMutableBufferPointer<UInt64> { UnsafeMutableBufferPointer(start: labelBase, count: width) }

  /// The elements, in order (empty for a branch).
  @inlinable @inline(__always)
  var elements: UnsafeMutableBufferPointer<Element> {
    UnsafeMutableBufferPointer(start: elementBase, count: isLeaf ? width : 0)
  }

  /// How many elements each child holds (empty for a leaf).
  @inlinable @inline(__always)
  var counts: UnsafeMutableBufferPointer<Int> {
    UnsafeMutableBufferPointer(start: countBase, count: isLeaf ? 0 : width)
  }

  /// The children, in order (empty for a leaf).
  @inlinable @inline(__always)
  var children: UnsafeMutableBufferPointer<ListNode> {
    UnsafeMutableBufferPointer(start: childBase, count: isLeaf ? 0 : width)
  }

  // MARK: Copying and moving entries

  /// A copy of this node, made because a write is about to change it while
  /// another list shares it, with room for `extra` more entries: the
  /// elements or the children are copied (each child retained) by code
  /// specialized for the element type. The copy holds all its children
  /// (it has no lender), also when this node borrows.
  @inlinable
  func copy(extra: Int = 0) -> ListNode {
    let width = self.width
    let isLeaf = self.isLeaf
    let node = Self.make(isLeaf: isLeaf, room: width &+ extra)
    node.labelBase.initialize(from: labelBase, count: width)
    if isLeaf {
      Self.copy(width, from: UnsafePointer(elementBase), to: node.elementBase)
    } else {
      node.countBase.initialize(from: countBase, count: width)
      Self.copy(width, from: UnsafePointer(childBase), to: node.childBase)
    }
    node.head.pointee.width = Int32(truncatingIfNeeded: width)
    node.head.pointee.count = count
    return node
  }

  /// Copies `count` items: trivial ones as one block, others one at a time,
  /// so that the copy is specialized for their type (a bulk
  /// `initialize(from:count:)` of a non-trivial type goes through the
  /// runtime's generic array copy). Without `_isPOD`, copying trivial
  /// items one at a time too, the row action measured for the deinit
  /// (with its teardown also unconditional) cost 2,968 and 10,089
  /// instructions instead of 2,943 and 10,059.
  @inlinable @inline(__always)
  static func copy<Item>(_ count: Int, from source: UnsafePointer<Item>, to target: UnsafeMutablePointer<Item>) {
    if _isPOD(Item.self) {
      target.initialize(from: source, count: count)
      return
    }
    var index = 0
    while index < count {
      (target + index).initialize(to: source[index])
      index &+= 1
    }
  }

  /// Makes `node` (uniquely referenced) able to hold `extra` more entries,
  /// moving its entries into a larger node when its storage is full.
  @inlinable
  static func reserve(_ node: inout ListNode, extra: Int) {
    let width = node.width
    let needed = width &+ extra
    guard needed > node.room else { return }
    node.settle()
    let maxRoom = node.maxWidth &+ 1
    let room = Swift.max(needed, Swift.min(Swift.max(node.room &* 2, 4), maxRoom))
    let grown = make(isLeaf: node.isLeaf, room: room)
    transfer(from: node, 0..<width, to: grown, at: 0, consuming: true)
    grown.count = node.count
    node.count = 0
    node = grown
  }

  /// Moves (`consuming`, then `source` must be uniquely referenced and
  /// closes the gap) or copies the entries `range` of `source` into
  /// `target` (uniquely referenced, with room for them) at `position`,
  /// after shifting `target`'s entries from there. Counts are left to the
  /// caller.
  @inlinable
  static func transfer(from source: ListNode, _ range: Range<Int>, to target: ListNode, at position: Int, consuming: Bool) {
    // Both hold all their children before any moves between them (a
    // copied child is retained, so a borrowing source may stay so).
    target.settle()
    if consuming { source.settle() }
    let moved = range.count
    let targetWidth = target.width
    let tail = targetWidth &- position
    let from = range.lowerBound
    func shift<Item>(_ base: UnsafeMutablePointer<Item>, _ sourceBase: UnsafeMutablePointer<Item>) {
      if tail > 0 { (base + position + moved).moveInitialize(from: base + position, count: tail) }
      if consuming {
        (base + position).moveInitialize(from: sourceBase + from, count: moved)
      } else {
        copy(moved, from: UnsafePointer(sourceBase + from), to: base + position)
      }
    }
    shift(target.labelBase, source.labelBase)
    if target.isLeaf {
      shift(target.elementBase, source.elementBase)
    } else {
      shift(target.countBase, source.countBase)
      shift(target.childBase, source.childBase)
    }
    target.head.pointee.width = Int32(truncatingIfNeeded: targetWidth &+ moved)
    guard consuming else { return }
    let sourceWidth = source.width
    let after = sourceWidth &- range.upperBound
    if after > 0 {
      (source.labelBase + from).moveInitialize(from: source.labelBase + range.upperBound, count: after)
      if source.isLeaf {
        (source.elementBase + from).moveInitialize(from: source.elementBase + range.upperBound, count: after)
      } else {
        (source.countBase + from).moveInitialize(from: source.countBase + range.upperBound, count: after)
        (source.childBase + from).moveInitialize(from: source.childBase + range.upperBound, count: after)
      }
    }
    source.head.pointee.width = Int32(truncatingIfNeeded: sourceWidth &- moved)
  }

  /// Inserts `element` labelled `label` at `index` of this leaf (uniquely
  /// referenced, with room for it). The count is left to the caller.
  @inlinable
  func insertElement(_ element: Element, label: UInt64, at index: Int) {
    let width = self.width
    let tail = width &- index
    let labels = labelBase
    let elements = elementBase
    if tail > 0 {
      (labels + (index &+ 1)).moveInitialize(from: labels + index, count: tail)
      (elements + (index &+ 1)).moveInitialize(from: elements + index, count: tail)
    }
    (labels + index).initialize(to: label)
    (elements + index).initialize(to: element)
    head.pointee.width = Int32(truncatingIfNeeded: width &+ 1)
  }

  /// Removes the element at `index` of this leaf (uniquely referenced).
  /// The count is left to the caller.
  @inlinable
  func removeElement(at index: Int) -> (element: Element, label: UInt64) {
    let width = self.width
    let labels = labelBase
    let elements = elementBase
    let removed = ((elements + index).move(), (labels + index).move())
    let tail = width &- index &- 1
    if tail > 0 {
      (labels + index).moveInitialize(from: labels + (index &+ 1), count: tail)
      (elements + index).moveInitialize(from: elements + (index &+ 1), count: tail)
    }
    head.pointee.width = Int32(truncatingIfNeeded: width &- 1)
    return removed
  }

  /// Inserts `child` at `index` of this branch (uniquely referenced, with
  /// room for it), with its count and greatest label. This node's count is
  /// left to the caller.
  @inlinable
  func insertChild(_ child: ListNode, at index: Int) {
    settle()
    let width = self.width
    let tail = width &- index
    let labels = labelBase
    let counts = countBase
    let children = childBase
    if tail > 0 {
      (labels + (index &+ 1)).moveInitialize(from: labels + index, count: tail)
      (counts + (index &+ 1)).moveInitialize(from: counts + index, count: tail)
      (children + (index &+ 1)).moveInitialize(from: children + index, count: tail)
    }
    (labels + index).initialize(to: child.maxLabel)
    (counts + index).initialize(to: child.count)
    (children + index).initialize(to: child)
    head.pointee.width = Int32(truncatingIfNeeded: width &+ 1)
  }

  /// Removes the child at `index` of this branch (uniquely referenced).
  /// This node's count is left to the caller.
  @inlinable
  func removeChild(at index: Int) {
    settle()
    let width = self.width
    let labels = labelBase
    let counts = countBase
    let children = childBase
    (children + index).deinitialize(count: 1)
    let tail = width &- index &- 1
    if tail > 0 {
      (labels + index).moveInitialize(from: labels + (index &+ 1), count: tail)
      (counts + index).moveInitialize(from: counts + (index &+ 1), count: tail)
      (children + index).moveInitialize(from: children + (index &+ 1), count: tail)
    }
    head.pointee.width = Int32(truncatingIfNeeded: width &- 1)
  }

  // MARK: Shape

  /// Elements per leaf at most. A write held against an older copy copies
  /// one leaf, so this bounds the elements copied per write.
  @inlinable static var leafCapacity: Int { 32 }
  /// Children per branch at most.
  @inlinable static var branchCapacity: Int { 64 }
  /// A node (other than the root) with fewer entries than a quarter of its
  /// maximum width is merged with or refilled from a sibling.
  @inlinable var minimumFill: Int { maxWidth / 4 }

  /// The greatest label in the node (which must not be empty).
  @inlinable var maxLabel: UInt64 { labelBase[width &- 1] }

  /// How many entries the node may hold (one more, briefly, before it
  /// splits).
  @inlinable var maxWidth: Int { isLeaf ? Self.leafCapacity : Self.branchCapacity }

  /// The child holding position `index` and the position within it; an
  /// `index` equal to the count lands at the end of the last child.
  ///
  /// Children hold about as many elements each, so the child is first
  /// guessed from `index`'s share of the node's count; the counts before
  /// the guess are summed (a loop the compiler vectorizes), and a wrong
  /// guess is settled by stepping to the neighbours, usually one or two.
  ///
  /// The node's `count` must be the sum of its children's counts.
  ///
  /// - Complexity: O(w) for a branch of `w` children, with a small constant.
  @inlinable
  func child(containing index: Int) -> (child: Int, offset: Int) {
    let total = count
    let counts = self.counts
    let last = counts.count &- 1
    var child = total > 0 ? Swift.min(index &* counts.count / total, last) : 0
    // Sum from the nearer end: the counts add up to `total`.
    var before = 0
    if child &<< 1 <= counts.count {
      for position in 0..<child { before &+= counts[position] }
    } else {
      var after = 0
      for position in child..<counts.count { after &+= counts[position] }
      before = total &- after
    }
    while child > 0 && before > index {
      child &-= 1
      before &-= counts[child]
    }
    while child < last && index &- before >= counts[child] {
      before &+= counts[child]
      child &+= 1
    }
    return (child, index &- before)
  }

  /// The child whose labels may include `label`: the first whose greatest
  /// label is not below it (in a leaf: the first element whose label is
  /// not below it), or `nil` when every label is below it.
  @inlinable @inline(__always)
  func child(forLabel label: UInt64) -> Int? {
    let labels = UnsafeBufferPointer(start: labelBase, count: width)
    let index = Self.firstIndex(notBelow: label, in: labels)
    return index < labels.count ? index : nil
  }

  /// The first position in `labels` (ascending) whose label is not below
  /// `label`, or `labels.count`.
  ///
  /// Labels are handed out evenly spaced (a list is built with one stride,
  /// an append steps one stride past the last label, relabelling spreads a
  /// subtree's labels evenly), and a branch's labels, its children's
  /// greatest, are about as even. So the position is first guessed by
  /// interpolation, which lands on it where the labels around it are evenly
  /// spaced, whatever the node's width; a wrong guess leaves a binary
  /// search of the side it tells.
  ///
  /// - Complexity: O(1) for evenly spaced labels; O(log w) for a node of
  ///   `w` labels otherwise.
  @inlinable @inline(__always)
  static func firstIndex(notBelow label: UInt64, in labels: UnsafeBufferPointer<UInt64>) -> Int {
    let count = labels.count
    // A node of a few labels (the root of a small list) is scanned, in
    // fewer instructions than the interpolation below.
    if count <= 4 {
      var index = 0
      while index < count && labels[index] < label { index &+= 1 }
      return index
    }
    guard label > labels[0] else { return 0 }
    let first = labels[0]
    let last = labels[count &- 1]
    guard label <= last else { return count }
    // Here first < label <= last, so count >= 2 and the position is in
    // 1..<count. The guess is about ceil((label - first) × (count - 1) /
    // (last - first)), the position `label` would have among evenly spaced
    // labels, in 0..<count.
    // Both sides are cut to 32 significant bits, so that the product
    // fits in 64 bits and one 64-bit division does (a full-width one is a
    // library call).
    let span = last &- first
    let cut = UInt64(truncatingIfNeeded: Swift.max(0, 32 &- span.leadingZeroBitCount))
    let denominator = span &>> cut
    let numerator = ((label &- first) &>> cut) &* UInt64(truncatingIfNeeded: count &- 1)
    let guess = Int(truncatingIfNeeded: (numerator &+ denominator &- 1) / denominator)
    // A guess off by one (a node whose last child or element is not as
    // full as the others) is settled by the neighbour.
    var lower: Int
    var upper: Int
    if labels[guess] < label {
      // labels[count - 1] >= label, so guess + 1 < count.
      if labels[guess &+ 1] >= label { return guess &+ 1 }
      lower = guess &+ 2
      upper = count &- 1
    } else if labels[guess &- 1] < label {
      return guess
    } else {
      // labels[0] < label <= labels[guess - 1], so guess >= 2.
      if labels[guess &- 2] < label { return guess &- 1 }
      lower = 1
      upper = guess &- 2
    }
    // The position is in lower...upper.
    while lower < upper {
      let middle = (lower &+ upper) &>> 1
      if labels[middle] < label { lower = middle &+ 1 } else { upper = middle }
    }
    return lower
  }

  /// Refreshes the count and greatest label kept for child `index`.
  @inlinable
  func refresh(child index: Int) {
    // Only this node's own count and label of the child change, not the
    // child pointer, so a borrowing node need not settle.
    let child = childBase[index]
    countBase[index] = child.count
    labelBase[index] = child.maxLabel
  }

  /// Moves the second half of this overfull node (uniquely referenced)
  /// into a new right sibling.
  @inlinable
  func split() -> ListNode {
    settle()
    let width = self.width
    let half = width / 2
    let right = Self.make(isLeaf: isLeaf, room: room)
    let movedCount = isLeaf ? width &- half : counts[half...].reduce(0, &+)
    Self.transfer(from: self, half..<width, to: right, at: 0, consuming: true)
    right.count = movedCount
    count &-= movedCount
    return right
  }
}
