extension PersistentList where Element: Equatable {
  /// Whether the two lists hold equal elements in the same order (labels
  /// are not compared); `visited` counts the nodes examined, for tests of
  /// the cost.
  ///
  /// Nodes that both lists share (`===`) are skipped without looking inside.
  /// Children that start at the same position and hold as many elements are
  /// compared pairwise; where insertions and removals shifted the children
  /// of two branches against each other, only the run of children between
  /// two positions where they line up again is opened, one level at a time,
  /// down to its leaves. So two versions differing in one element visit one
  /// path, and a few insertions and removals visit a few paths.
  ///
  /// - Complexity: O(1) for a list and its copy; O(log n) visits per
  ///   difference between two versions; O(n) for unrelated lists.
  @inlinable
  func elementsEqual(_ other: PersistentList, visited: inout Int) -> Bool {
    root.count == other.root.count && Self.equal(root, other.root, visited: &visited)
  }

  /// Whether two nodes holding as many elements hold equal ones.
  @inlinable
  static func equal(_ a: ListNode<Element>, _ b: ListNode<Element>, visited: inout Int) -> Bool {
    if a === b { return true }
    visited &+= 1
    if a.isLeaf && b.isLeaf { return a.width == b.width && equalElements(a.elementBase, b.elementBase, count: a.width) }
    if !a.isLeaf && !b.isLeaf && a.width == b.width {
      // Children aligned one to one (the common case: two versions that
      // differ by writes in place): skip the shared ones by identity,
      // without retaining them, and open only those that differ. A shared
      // child holds as many elements on both sides, so only the counts of
      // differing children are compared: while they match, each pair
      // covers the same positions on both sides.
      let width = a.width
      var index = firstDifferingChild(a, b, from: 0)
      while index < width {
        if a.countBase[index] != b.countBase[index] { return equalRuns(a, b, visited: &visited) }
        if !equal(a.childBase[index], b.childBase[index], visited: &visited) { return false }
        index = firstDifferingChild(a, b, from: index &+ 1)
      }
      return true
    }
    return equalRuns(a, b, visited: &visited)
  }

  /// Whether two nodes holding as many elements hold equal ones, compared
  /// as runs of children (or a leaf each) that need not line up.
  @inlinable
  static func equalRuns(_ a: ListNode<Element>, _ b: ListNode<Element>, visited: inout Int) -> Bool {
    equalRuns(
      a.isLeaf ? [a] : ContiguousArray(a.children), b.isLeaf ? [b] : ContiguousArray(b.children), visited: &visited)
  }

  /// Whether the `count` items from `x` equal those from `y`, read in
  /// place (a sequence algorithm over the buffers copies each element out,
  /// retaining what it holds).
  @inlinable @inline(__always)
  static func equalElements<Item: Equatable>(
    _ x: UnsafeMutablePointer<Item>, _ y: UnsafeMutablePointer<Item>, count: Int
  ) -> Bool {
    var index = 0
    while index < count {
      if x[index] != y[index] { return false }
      index &+= 1
    }
    return true
  }

  /// The first position from `start` where the branches `a` and `b`,
  /// which have as many children, hold different children (by address, with
  /// no reference counting); their width when there is none.
  @inlinable
  static func firstDifferingChild(_ a: ListNode<Element>, _ b: ListNode<Element>, from start: Int) -> Int {
    firstDifferingWord(UnsafeRawBufferPointer(a.children), UnsafeRawBufferPointer(b.children), from: start)
  }

  /// Whether two sequences of nodes holding as many elements in all hold
  /// equal ones.
  @inlinable
  static func equalRuns(
    _ a: ContiguousArray<ListNode<Element>>, _ b: ContiguousArray<ListNode<Element>>, visited: inout Int
  ) -> Bool {
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
      if a[i].count == b[j].count {
        if !equal(a[i], b[j], visited: &visited) { return false }
        i &+= 1
        j &+= 1
        continue
      }
      // Misaligned: take the shortest runs on both sides that end together.
      var runA: ContiguousArray<ListNode<Element>> = [a[i]]
      var runB: ContiguousArray<ListNode<Element>> = [b[j]]
      var endA = a[i].count
      var endB = b[j].count
      i &+= 1
      j &+= 1
      while endA != endB {
        if endA < endB {
          runA.append(a[i])
          endA &+= a[i].count
          i &+= 1
        } else {
          runB.append(b[j])
          endB &+= b[j].count
          j &+= 1
        }
      }
      if runA.allSatisfy(\.isLeaf) && runB.allSatisfy(\.isLeaf) {
        if !equalLeaves(runA, runB, visited: &visited) { return false }
      } else if !equalRuns(open(runA, visited: &visited), open(runB, visited: &visited), visited: &visited) {
        return false
      }
    }
    return true
  }

  /// The nodes one level down: each branch replaced by its children.
  @inlinable
  static func open(_ nodes: ContiguousArray<ListNode<Element>>, visited: inout Int) -> ContiguousArray<ListNode<Element>> {
    var opened: ContiguousArray<ListNode<Element>> = []
    for node in nodes {
      if node.isLeaf {
        opened.append(node)
      } else {
        visited &+= 1
        opened.append(contentsOf: node.children)
      }
    }
    return opened
  }

  /// Compares two runs of leaves element by element, skipping a leaf both
  /// share at the same position.
  @inlinable
  static func equalLeaves(
    _ left: ContiguousArray<ListNode<Element>>, _ right: ContiguousArray<ListNode<Element>>, visited: inout Int
  ) -> Bool {
    var leftLeaf = 0
    var leftOffset = 0
    var rightLeaf = 0
    var rightOffset = 0
    while leftLeaf < left.count && rightLeaf < right.count {
      visited &+= 1
      if leftOffset == 0 && rightOffset == 0 && left[leftLeaf] === right[rightLeaf] {
        leftLeaf &+= 1
        rightLeaf &+= 1
        continue
      }
      let x = left[leftLeaf].elements
      let y = right[rightLeaf].elements
      let run = Swift.min(x.count - leftOffset, y.count - rightOffset)
      if !equalElements(x.baseAddress! + leftOffset, y.baseAddress! + rightOffset, count: run) { return false }
      leftOffset &+= run
      rightOffset &+= run
      if leftOffset == x.count {
        leftLeaf &+= 1
        leftOffset = 0
      }
      if rightOffset == y.count {
        rightLeaf &+= 1
        rightOffset = 0
      }
    }
    return true
  }
}

extension PersistentList {
  /// How many nodes of this list another list does not share: after a
  /// write to a copy, the nodes that the write allocated. For tests of the
  /// cost.
  func nodesNotShared(with other: PersistentList) -> Int {
    var theirs = Set<ObjectIdentifier>()
    func collect(_ node: ListNode<Element>) {
      theirs.insert(ObjectIdentifier(node))
      for child in node.children { collect(child) }
    }
    collect(other.root)
    func count(_ node: ListNode<Element>) -> Int {
      if theirs.contains(ObjectIdentifier(node)) { return 0 }
      return 1 + node.children.reduce(0) { $0 + count($1) }
    }
    return count(root)
  }

  /// The height of the tree (a lone leaf has height 1). For tests.
  var height: Int {
    var height = 1
    var node = root
    while !node.isLeaf {
      node = node.children[0]
      height += 1
    }
    return height
  }

  /// Structural problems of the tree, for invariant checks; empty when
  /// sound: counts and greatest labels match the children, labels grow
  /// strictly, nodes other than the root are filled at least to
  /// `minimumFill` and at most to capacity, leaves are all at one depth.
  func invariantViolations() -> [String] {
    var problems: [String] = []
    var previousLabel: UInt64?
    var leafDepth: Int?
    func visit(_ node: ListNode<Element>, depth: Int, isRoot: Bool) {
      if node.width > node.maxWidth || node.width > node.room { problems.append("node over capacity: \(node.width)") }
      if !isRoot && node.width < node.minimumFill { problems.append("node under minimum fill: \(node.width)") }
      if node.isLeaf {
        if let leafDepth, leafDepth != depth { problems.append("leaves at depths \(leafDepth) and \(depth)") }
        leafDepth = depth
        if node.labels.count != node.elements.count { problems.append("labels and elements differ in number") }
        if node.count != node.elements.count { problems.append("leaf count \(node.count) for \(node.elements.count) elements") }
        for label in node.labels {
          if let previousLabel, previousLabel >= label { problems.append("labels out of order") }
          previousLabel = label
        }
        return
      }
      if isRoot && node.children.count < 2 { problems.append("root branch with \(node.children.count) child") }
      if node.counts.count != node.children.count || node.labels.count != node.children.count {
        problems.append("branch arrays differ in length")
        return
      }
      for (index, child) in node.children.enumerated() {
        if node.counts[index] != child.count { problems.append("stale child count") }
        if child.count == 0 { problems.append("empty child") } else if node.labels[index] != child.maxLabel {
          problems.append("stale child label")
        }
        visit(child, depth: depth + 1, isRoot: false)
      }
      if node.count != node.counts.reduce(0, +) { problems.append("branch count does not add up") }
    }
    visit(root, depth: 0, isRoot: true)
    return problems
  }
}

/// The first word position from `start` where `left` and `right` differ;
/// their length in words when there is none. Not generic, so that
/// unspecialized callers pay no type metadata look-up per word.
@usableFromInline
func firstDifferingWord(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer, from start: Int) -> Int {
  let stride = MemoryLayout<UInt>.stride
  let count = Swift.min(left.count, right.count) / stride
  var index = start
  while index < count {
    let offset = index &* stride
    if left.load(fromByteOffset: offset, as: UInt.self) != right.load(fromByteOffset: offset, as: UInt.self) { break }
    index &+= 1
  }
  return index
}
