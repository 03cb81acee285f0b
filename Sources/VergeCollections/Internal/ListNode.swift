/// A node of a ``PersistentList``: a leaf holding up to `leafCapacity`
/// elements with their order labels, or a branch holding up to
/// `branchCapacity` children with, per child, its element count and its
/// greatest label.
///
/// Nodes are shared between copies of a list. A write copies a node only when
/// it is shared (`isKnownUniquelyReferenced`); a uniquely referenced node is
/// mutated in place.
///
/// The fields skip the runtime's dynamic exclusivity checks, which otherwise
/// cost more than the tree's own work: a node is written only by the one
/// list value that references it uniquely, inside that value's own mutating
/// access (which the compiler checks statically), so two accesses to one
/// node's fields never overlap.
@usableFromInline
final class ListNode<Element> {
  /// A leaf: the label of each element. A branch: the greatest label under
  /// each child.
  @usableFromInline @exclusivity(unchecked) var labels: ContiguousArray<UInt64>
  /// The elements, in order (leaves only).
  @usableFromInline @exclusivity(unchecked) var elements: ContiguousArray<Element>
  /// The children, in order (branches only).
  @usableFromInline @exclusivity(unchecked) var children: ContiguousArray<ListNode>
  /// How many elements each child holds (branches only).
  @usableFromInline @exclusivity(unchecked) var counts: ContiguousArray<Int>
  /// How many elements the node holds in all.
  @usableFromInline @exclusivity(unchecked) var count: Int
  @usableFromInline let isLeaf: Bool

  @inlinable
  init(labels: ContiguousArray<UInt64>, elements: ContiguousArray<Element>) {
    self.labels = labels
    self.elements = elements
    self.children = []
    self.counts = []
    self.count = elements.count
    self.isLeaf = true
  }

  @inlinable
  init(children: ContiguousArray<ListNode>) {
    self.labels = ContiguousArray(children.lazy.map { $0.maxLabel })
    self.elements = []
    self.counts = ContiguousArray(children.lazy.map { $0.count })
    self.children = children
    self.count = self.counts.reduce(0, +)
    self.isLeaf = false
  }

  /// A copy of `other`, made because a write is about to change it while
  /// another list shares it: a leaf's elements or a branch's children are
  /// copied into storage of the copy's own right away (the write changes
  /// them next), the labels and counts are shared until written.
  @inlinable
  init(copying other: ListNode) {
    labels = other.labels
    counts = other.counts
    count = other.count
    isLeaf = other.isLeaf
    if other.isLeaf {
      elements = other.elements
      children = []
    } else {
      elements = []
      children = Self.copied(other.children)
    }
  }

  /// A copy of `source` in new storage, copied by a loop in the caller's
  /// code, which is specialized for the element type: for a branch's
  /// children, one retain each, about 25 instructions. (Writing to a shared
  /// array copies it through the runtime, which calls the element type's
  /// copy function per element: about 45 instructions per child. A leaf's
  /// elements are left to the array's own copy, which measured cheaper for
  /// them.)
  @inlinable
  static func copied<Item>(_ source: ContiguousArray<Item>) -> ContiguousArray<Item> {
    source.withUnsafeBufferPointer { source in
      ContiguousArray(unsafeUninitializedCapacity: source.count) { target, initialized in
        guard let from = source.baseAddress, let to = target.baseAddress else { return }
        var index = 0
        while index < source.count {
          (to + index).initialize(to: from[index])
          index &+= 1
        }
        initialized = source.count
      }
    }
  }

  /// Elements per leaf at most. A write held against an older copy copies
  /// one leaf, so this bounds the elements copied per write.
  @inlinable static var leafCapacity: Int { 32 }
  /// Children per branch at most.
  @inlinable static var branchCapacity: Int { 64 }
  /// A node (other than the root) with fewer entries than a quarter of its
  /// capacity is merged with or refilled from a sibling.
  @inlinable var minimumFill: Int { capacity / 4 }

  /// The greatest label in the node (which must not be empty).
  @inlinable var maxLabel: UInt64 { labels[labels.count &- 1] }

  /// How many entries (elements or children) the node holds.
  @inlinable var width: Int { isLeaf ? elements.count : children.count }

  @inlinable var capacity: Int { isLeaf ? Self.leafCapacity : Self.branchCapacity }

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
    return counts.withUnsafeBufferPointer { counts in
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
  }

  /// The child whose labels may include `label`: the first whose greatest
  /// label is not below it (in a leaf: the first element whose label is
  /// not below it), or `nil` when every label is below it.
  @inlinable @inline(__always)
  func child(forLabel label: UInt64) -> Int? {
    let index = labels.withUnsafeBufferPointer { Self.firstIndex(notBelow: label, in: $0) }
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
    let child = children[index]
    counts[index] = child.count
    labels[index] = child.maxLabel
  }

  /// Moves the second half of this overfull node into a new right sibling.
  @inlinable
  func split() -> ListNode {
    let half = width / 2
    if isLeaf {
      let right = ListNode(labels: ContiguousArray(labels[half...]), elements: ContiguousArray(elements[half...]))
      labels.removeSubrange(half...)
      elements.removeSubrange(half...)
      count = elements.count
      return right
    }
    let right = ListNode(children: ContiguousArray(children[half...]))
    children.removeSubrange(half...)
    labels.removeSubrange(half...)
    counts.removeSubrange(half...)
    count -= right.count
    return right
  }
}
