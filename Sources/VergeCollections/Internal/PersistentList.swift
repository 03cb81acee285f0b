/// A persistent, structurally shared sequence: a B-tree of elements whose
/// branches keep each child's element count (for positional access) and
/// greatest label (for search by label).
///
/// Every element carries an order label, a `UInt64` that grows along the
/// sequence, so that a position can be found from a label alone (``index(ofLabel:)``)
/// while the positions of later elements shift on insertion. The labels are
/// chosen by the caller (see ``freeLabel(at:)`` and ``relabel(around:_:)``).
///
/// Copies share every node. A write copies the nodes on its path that
/// another copy shares and mutates uniquely referenced ones in place, so it
/// costs O(log n) also while an earlier copy is held.
@usableFromInline
struct PersistentList<Element> {
  @usableFromInline var root: ListNode<Element>

  @inlinable
  init() {
    root = ListNode.emptyLeaf()
  }

  /// A list of `elements` labelled evenly around the middle of the label
  /// space, built bottom-up with full leaves.
  ///
  /// - Complexity: O(n).
  @inlinable
  init(_ elements: ContiguousArray<Element>) {
    let (first, stride) = Self.freshLabels(count: elements.count)
    var level: ContiguousArray<ListNode<Element>> = []
    level.reserveCapacity(elements.count / ListNode<Element>.leafCapacity + 1)
    elements.withUnsafeBufferPointer { elements in
      var start = 0
      while start < elements.count {
        let end = Swift.min(start + ListNode<Element>.leafCapacity, elements.count)
        level.append(
          ListNode.leaf(
            copying: elements.baseAddress.unsafelyUnwrapped + start, count: end - start,
            first: first &+ stride &* UInt64(start), stride: stride))
        start = end
      }
    }
    guard !level.isEmpty else {
      root = ListNode.emptyLeaf()
      return
    }
    while level.count > 1 {
      var parents: ContiguousArray<ListNode<Element>> = []
      var index = 0
      while index < level.count {
        let end = Swift.min(index + ListNode<Element>.branchCapacity, level.count)
        parents.append(ListNode.branch(children: level[index..<end]))
        index = end
      }
      level = parents
    }
    Self.fixLastFill(level[0])
    root = level[0]
  }

  /// The labels of a list of `count` elements built afresh: element `i`
  /// has `first + stride × i`.
  @inlinable
  static func freshLabels(count: Int) -> (first: UInt64, stride: UInt64) {
    let stride = spacing(for: count)
    return (center &- stride &* UInt64(count / 2), stride)
  }

  /// Bulk loading leaves the last node of each level possibly underfull:
  /// refill it from its left sibling.
  @inlinable
  static func fixLastFill(_ node: ListNode<Element>) {
    guard !node.isLeaf, node.children.count > 1 else { return }
    let last = node.children.count - 1
    if node.children[last].width < node.children[last].minimumFill {
      node.rebalance(child: last)
    }
    fixLastFill(node.children[node.children.count - 1])
  }

  /// The middle of the label space, where a new list starts.
  @inlinable static var center: UInt64 { 1 << 63 }

  /// The distance between consecutive labels when `count` elements are
  /// labelled afresh: 2³² (room for 32 insertions between two neighbours),
  /// less when that would not fit.
  @inlinable
  static func spacing(for count: Int) -> UInt64 {
    Swift.min(1 << 32, UInt64.max / UInt64(count + 2))
  }

  @inlinable var count: Int { root.count }

  // MARK: Reading

  /// The element at `index`.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func element(at index: Int) -> Element {
    let (leaf, offset) = leaf(containing: index)
    return leaf.elements[offset]
  }

  /// The leaf holding position `index` and the offset there.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func leaf(containing index: Int) -> (leaf: ListNode<Element>, offset: Int) {
    // The descent holds no reference to the nodes it passes (`root` keeps
    // them alive), so it costs no reference counting.
    var node = Unmanaged.passUnretained(root)
    var offset = index
    while true {
      let next: Unmanaged<ListNode<Element>>? = node._withUnsafeGuaranteedRef { node in
        guard !node.isLeaf else { return nil }
        let (child, inner) = node.child(containing: offset)
        offset = inner
        return Unmanaged.passUnretained(node.childBase[child])
      }
      guard let next else { break }
      node = next
    }
    return (node.takeUnretainedValue(), offset)
  }

  /// The label of the element at `index`.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func label(at index: Int) -> UInt64 {
    let (leaf, offset) = leaf(containing: index)
    return leaf.labels[offset]
  }

  /// The position and element of the element labelled `label`, which must
  /// be present.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func locate(label: UInt64) -> (index: Int, element: Element) {
    // The descent holds no reference to the nodes it passes, like
    // ``element(label:)``.
    var node = Unmanaged.passUnretained(root)
    var index = 0
    while true {
      let next: Unmanaged<ListNode<Element>>? = node._withUnsafeGuaranteedRef { node in
        guard !node.isLeaf else { return nil }
        guard let child = node.child(forLabel: label) else { fatalError("IdentifiedArray: label not found") }
        // The elements before the child, summed from the nearer end.
        let total = node.count
        let counts = node.counts
        if child &<< 1 <= counts.count {
          for before in 0..<child { index &+= counts[before] }
        } else {
          var after = 0
          for position in child..<counts.count { after &+= counts[position] }
          index &+= total &- after
        }
        return Unmanaged.passUnretained(node.childBase[child])
      }
      guard let next else { break }
      node = next
    }
    return node._withUnsafeGuaranteedRef { node in
      guard let offset = node.child(forLabel: label), node.labels[offset] == label else {
        fatalError("IdentifiedArray: label not found")
      }
      return (index &+ offset, node.elements[offset])
    }
  }

  /// The element labelled `label`, which must be present.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func element(label: UInt64) -> Element {
    // The descent holds no reference to the nodes it passes: `root` keeps
    // them alive and a read changes nothing, so it costs no reference
    // counting. It borrows each node through the standard library's
    // `_withUnsafeGuaranteedRef`: with the supported
    // `takeUnretainedValue()` in this module's descents, a read by id cost
    // 401, 526 and 542 instructions at 100, 10,000 and 100,000 rows
    // instead of 243, 328 and 346 (scenario 14, 2026-11-28).
    var node = Unmanaged.passUnretained(root)
    while true {
      let next: Unmanaged<ListNode<Element>>? = node._withUnsafeGuaranteedRef { node in
        guard !node.isLeaf else { return nil }
        guard let child = node.child(forLabel: label) else { fatalError("IdentifiedArray: label not found") }
        return Unmanaged.passUnretained(node.childBase[child])
      }
      guard let next else { break }
      node = next
    }
    return node._withUnsafeGuaranteedRef { node in
      guard let offset = node.child(forLabel: label), node.labelBase[offset] == label else {
        fatalError("IdentifiedArray: label not found")
      }
      return node.elementBase[offset]
    }
  }

  /// The position of the element labelled `label`, which must be present.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func index(ofLabel label: UInt64) -> Int {
    locate(label: label).index
  }

  // MARK: Writing

  /// Runs `body` on the element at `index`, in place.
  ///
  /// - Complexity: O(log n): the nodes on the path that another list
  ///   shares are copied.
  @inlinable
  mutating func update<Result>(at index: Int, _ body: (inout Element) throws -> Result) rethrows -> Result {
    try Self.update(&root, at: index, body)
  }

  @inlinable
  static func update<Result>(
    _ node: inout ListNode<Element>, at index: Int, _ body: (inout Element) throws -> Result
  ) rethrows -> Result {
    ListNode.makeUniqueSettled(&node)
    if node.isLeaf { return try body(&node.elementBase[index]) }
    let (child, offset) = node.child(containing: index)
    return try update(&node.childBase[child], at: offset, body)
  }

  /// The element labelled `label` (which must be present), in storage of
  /// this list's own: every node on the path is made uniquely referenced,
  /// so that the caller may write the element in place. The pointer holds
  /// no reference (the list keeps the leaf alive) and is valid until the
  /// list is next changed or released.
  ///
  /// - Complexity: O(log n).
  //
  // Not forced inline: `@inline(__always)` made a write by id with no other
  // copy cost 654, 747 and 758 instructions at 100, 10,000 and 100,000 rows
  // instead of 679, 781 and 793, but `forEach`'s reduction, which it is
  // inlined into, then cost every action of no row 22 instructions more
  // (an unrelated action 197 instead of 175; scenarios 11, 13 and 14,
  // 2026-11-28).
  @inlinable
  mutating func uniqueElement(label: UInt64) -> UnsafeMutablePointer<Element> {
    if !isKnownUniquelyReferenced(&root) { root = root.borrowingCopy() }
    // The descent holds no reference to the nodes it passes: each is kept
    // by its parent, which it has just made unique, so the path costs no
    // reference counting. A shared branch on the path is copied with
    // ``ListNode/borrowingCopy()``: the write only replaces one child
    // pointer per branch, so the copy borrows its other children from the
    // branch it copies instead of retaining each. Borrowed as in
    // ``element(label:)``; with `takeUnretainedValue()`, a write by id with
    // no other copy cost 838, 1,012 and 1,021 instructions at 100, 10,000
    // and 100,000 rows instead of 693, 810 and 824 (scenario 14,
    // 2026-11-28).
    var node = Unmanaged.passUnretained(root)
    while true {
      let step: Step? = node._withUnsafeGuaranteedRef { node in
        guard !node.isLeaf else { return nil }
        guard let child = node.child(forLabel: label) else { fatalError("IdentifiedArray: label not found") }
        return (node.childBase + child, child, node.borrows(child))
      }
      guard let step else { break }
      node = Self.uniqueChild(of: node, step)
    }
    return node._withUnsafeGuaranteedRef { leaf in
      guard let offset = leaf.child(forLabel: label), leaf.labelBase[offset] == label else {
        fatalError("IdentifiedArray: label not found")
      }
      return leaf.elementBase + offset
    }
  }

  /// The element at `index`, in storage of this list's own (see
  /// ``uniqueElement(label:)``).
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func uniqueElement(index: Int) -> UnsafeMutablePointer<Element> {
    let (leaf, offset) = uniqueLeaf(index: index)
    return leaf._withUnsafeGuaranteedRef { $0.elementBase + offset }
  }

  /// The leaf holding position `index` and the offset there, after making
  /// every node on the path uniquely referenced; the leaf is not retained
  /// (the list keeps it alive).
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func uniqueLeaf(index: Int) -> (leaf: Unmanaged<ListNode<Element>>, offset: Int) {
    if !isKnownUniquelyReferenced(&root) { root = root.borrowingCopy() }
    var node = Unmanaged.passUnretained(root)
    var offset = index
    while true {
      let step: Step? = node._withUnsafeGuaranteedRef { node in
        guard !node.isLeaf else { return nil }
        let (child, inner) = node.child(containing: offset)
        offset = inner
        return (node.childBase + child, child, node.borrows(child))
      }
      guard let step else { break }
      node = Self.uniqueChild(of: node, step)
    }
    return (node, offset)
  }

  /// A step of a write's descent: the slot of the child on the path, its
  /// position, and whether the branch holding it borrows it.
  @usableFromInline
  typealias Step = (slot: UnsafeMutablePointer<ListNode<Element>>, child: Int, borrowed: Bool)

  /// The child at `step` of `node` (a uniquely referenced branch), made
  /// uniquely referenced for a write that replaces only child pointers on
  /// its path: a borrowed child by ``ListNode/unshareChild(_:)``, a shared
  /// one by ``ListNode/borrowingCopy()``; not retained, `node` keeps it.
  ///
  /// A branch that holds all its children tests its child as before
  /// borrowing; all borrowing work is out of line. This runs outside the
  /// descent's closure, which so holds no call specialized for the
  /// element type: the compiler merges the closure's specializations for
  /// different element types into one that takes those calls as
  /// function parameters: with the call to ``ListNode/unshareChild(_:)``
  /// in the closure, a write by id with no other copy cost 701, 833 and
  /// 845 instructions at 100, 10,000 and 100,000 rows, against 684, 796
  /// and 808 before branches borrowed (scenario 14, 2026-11-28).
  @inlinable @inline(__always)
  static func uniqueChild(of node: Unmanaged<ListNode<Element>>, _ step: Step) -> Unmanaged<ListNode<Element>> {
    if step.borrowed {
      node._withUnsafeGuaranteedRef { $0.unshareChild(step.child) }
    } else if !isKnownUniquelyReferenced(&step.slot.pointee) {
      step.slot.pointee = step.slot.pointee.borrowingCopy()
    }
    return Unmanaged.passUnretained(step.slot.pointee)
  }

  /// Inserts `element` labelled `label` at `index`; the label must lie
  /// strictly between the labels of its new neighbours.
  ///
  /// - Complexity: O(log n).
  @inlinable
  mutating func insert(_ element: Element, label: UInt64, at index: Int) {
    if let right = Self.insert(&root, element, label: label, at: index) {
      root = ListNode.branch(children: [root, right])
    }
  }

  /// Returns the new right sibling when `node` had to split.
  @inlinable
  static func insert(_ node: inout ListNode<Element>, _ element: Element, label: UInt64, at index: Int) -> ListNode<Element>? {
    ListNode.makeUniqueSettled(&node, extra: 1)
    if node.isLeaf {
      ListNode.reserve(&node, extra: 1)
      node.count += 1
      node.insertElement(element, label: label, at: index)
      return node.width > ListNode<Element>.leafCapacity ? node.split() : nil
    }
    var (child, offset) = node.child(containing: index)
    // At the boundary of two children the element may end the left one or
    // start the right one: it goes to the one holding fewer, so that putting
    // back an element just removed from a full node's edge does not split
    // its full neighbour.
    if offset == 0 && child > 0 && node.counts[child &- 1] < node.counts[child] {
      child &-= 1
      offset = node.counts[child]
    }
    node.count += 1
    let right = insert(&node.childBase[child], element, label: label, at: offset)
    guard let right else {
      // The child grew by one and its greatest label changed only if
      // `label` is the new greatest.
      node.countBase[child] &+= 1
      if label > node.labelBase[child] { node.labelBase[child] = label }
      return nil
    }
    node.refresh(child: child)
    ListNode.reserve(&node, extra: 1)
    node.insertChild(right, at: child + 1)
    return node.width > ListNode<Element>.branchCapacity ? node.split() : nil
  }

  /// Removes the element at `index`.
  ///
  /// - Returns: The element and its label.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func remove(at index: Int) -> (element: Element, label: UInt64) {
    let removed = Self.remove(&root, at: index)
    if !root.isLeaf && root.width == 1 { root = root.childBase[0] }
    return removed
  }

  @inlinable
  static func remove(_ node: inout ListNode<Element>, at index: Int) -> (element: Element, label: UInt64) {
    ListNode.makeUniqueSettled(&node)
    if node.isLeaf {
      node.count -= 1
      return node.removeElement(at: index)
    }
    let (child, offset) = node.child(containing: index)
    node.count -= 1
    let removed = remove(&node.childBase[child], at: offset)
    let (width, minimumFill) = (node.childBase[child].width, node.childBase[child].minimumFill)
    if width < minimumFill {
      node.rebalance(child: child)
    } else {
      // The child shrank by one and its greatest label changed only if
      // the removed label was the greatest.
      node.countBase[child] &-= 1
      if removed.label == node.labelBase[child] { node.refresh(child: child) }
    }
    if node.width == 1 && node.childBase[0].count == 0 {
      // The root's only leaf emptied: become an empty leaf.
      node = ListNode.emptyLeaf()
    }
    return removed
  }

  // MARK: Labels

  /// A label strictly between the labels of the elements at `index - 1` and
  /// `index` (an append steps 2³² past the last label), or `nil` when they
  /// are adjacent and ``relabel(around:_:)`` must make room first.
  ///
  /// - Complexity: O(log n).
  @inlinable
  func freeLabel(at index: Int) -> UInt64? {
    if count == 0 { return Self.center }
    let low: UInt64
    let high: UInt64
    if index > 0 {
      // One descent finds both neighbours when they share a leaf.
      let (leaf, offset) = leaf(containing: index - 1)
      low = leaf.labels[offset]
      if index == count {
        high = .max
      } else if offset + 1 < leaf.labels.count {
        high = leaf.labels[offset + 1]
      } else {
        high = label(at: index)
      }
    } else {
      low = 0
      high = label(at: index)
    }
    guard high - low >= 2 else { return nil }
    let middle = low + (high - low) / 2
    let step: UInt64 = 1 << 32
    if index == count { return high - low > step ? low + step : middle }
    if index == 0 { return high - low > step ? high - step : middle }
    return middle
  }

  /// Spreads the labels of the smallest subtree around position `index`
  /// whose label range leaves room, so that ``freeLabel(at:)`` finds one
  /// there; `relabelled` sees each element with its new label.
  ///
  /// The subtree chosen is the lowest one on the path to `index` whose labels
  /// can be spaced at least 2^(8 + 8 × height) apart (height 0 is a leaf), or
  /// the whole list.
  ///
  /// - Complexity: O(k) for a subtree of k elements, plus `relabelled`'s
  ///   cost per element.
  @inlinable
  mutating func relabel(around index: Int, _ relabelled: (Element, UInt64) -> Void) {
    // Find the height of the subtree to relabel, walking down the path.
    var ranges: [(low: UInt64, high: UInt64, count: Int)] = []
    var node = root
    var low: UInt64 = 0
    var high: UInt64 = .max
    var offset = Swift.min(index, count - 1)
    while true {
      ranges.append((low, high, node.count))
      if node.isLeaf { break }
      let (child, inner) = node.child(containing: offset)
      if child > 0 { low = node.labels[child - 1] }
      if child < node.children.count - 1 { high = node.labels[child] }
      node = node.children[child]
      offset = inner
    }
    var depth = 0
    for level in Swift.stride(from: ranges.count - 1, to: 0, by: -1) {
      let height = ranges.count - 1 - level
      let range = ranges[level]
      let step = (range.high - range.low) / UInt64(range.count + 1)
      if step >> UInt64(Swift.min(8 + 8 * height, 62)) > 0 {
        depth = level
        break
      }
    }
    if depth == 0 {
      let spacing = Self.spacing(for: count)
      var next = Self.center &- spacing &* UInt64(count / 2)
      Self.relabel(&root, next: &next, stride: spacing, relabelled)
      return
    }
    let range = ranges[depth]
    let spacing = (range.high - range.low) / UInt64(range.count + 1)
    var next = range.low + spacing
    Self.relabel(&root, depth: depth, index: Swift.min(index, count - 1), next: &next, stride: spacing, relabelled)
  }

  /// Descends `depth` levels towards `index`, then relabels that subtree.
  @inlinable
  static func relabel(
    _ node: inout ListNode<Element>, depth: Int, index: Int, next: inout UInt64, stride: UInt64,
    _ relabelled: (Element, UInt64) -> Void
  ) {
    if depth == 0 {
      relabel(&node, next: &next, stride: stride, relabelled)
      return
    }
    ListNode.makeUniqueSettled(&node)
    let (child, offset) = node.child(containing: index)
    relabel(&node.childBase[child], depth: depth - 1, index: offset, next: &next, stride: stride, relabelled)
    node.refresh(child: child)
  }

  /// Labels every element under `node` `next`, `next + stride`, … in order.
  @inlinable
  static func relabel(
    _ node: inout ListNode<Element>, next: inout UInt64, stride: UInt64, _ relabelled: (Element, UInt64) -> Void
  ) {
    ListNode.makeUniqueSettled(&node)
    if node.isLeaf {
      for position in node.labels.indices {
        node.labels[position] = next
        relabelled(node.elements[position], next)
        next &+= stride
      }
      return
    }
    for child in node.children.indices {
      relabel(&node.childBase[child], next: &next, stride: stride, relabelled)
      node.labelBase[child] = node.childBase[child].maxLabel
    }
  }
}

extension PersistentList {
  /// Calls `body` with every element and its label, in order.
  ///
  /// - Complexity: O(n).
  @inlinable
  func forEachLabelled(_ body: (Element, UInt64) throws -> Void) rethrows {
    try Self.forEachLabelled(root, body)
  }

  @inlinable
  static func forEachLabelled(_ node: ListNode<Element>, _ body: (Element, UInt64) throws -> Void) rethrows {
    if node.isLeaf {
      for position in node.elements.indices { try body(node.elements[position], node.labels[position]) }
      return
    }
    for child in node.children { try forEachLabelled(child, body) }
  }
}
