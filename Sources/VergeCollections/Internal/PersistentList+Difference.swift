extension PersistentList {
  /// Calls `visitSelf` with every element of this list and `visitOther`
  /// with every element of `other` that lies in a node the two lists do not
  /// share; elements in shared nodes are skipped without looking inside.
  ///
  /// An element in a shared node is in both lists with the same value, so
  /// the elements visited include every element that one list holds and
  /// the other does not hold, or holds with another value. The trees are
  /// opened one level at a time, and only below the nodes that the other
  /// side does not hold at that level, so two versions that differ by a few
  /// writes, insertions or removals visit a few paths and their leaves.
  ///
  /// - Complexity: O(changed × (branch width × log n + leaf size)) for two
  ///   versions of one list; O(n) for unrelated lists.
  @inlinable
  func forEachElementNotShared(
    with other: PersistentList, _ visitSelf: (Element) -> Void, _ visitOther: (Element) -> Void
  ) {
    var left: [ListNode<Element>] = [root]
    var right: [ListNode<Element>] = [other.root]
    while !left.isEmpty || !right.isEmpty {
      let leftNodes = Set(left.lazy.map(ObjectIdentifier.init))
      let rightNodes = Set(right.lazy.map(ObjectIdentifier.init))
      left = Self.open(left, skipping: rightNodes, visitSelf)
      right = Self.open(right, skipping: leftNodes, visitOther)
    }
  }

  /// The children of the branches among `nodes` that are not in `shared`;
  /// the elements of the leaves among them go to `visit`.
  @inlinable
  static func open(
    _ nodes: [ListNode<Element>], skipping shared: Set<ObjectIdentifier>, _ visit: (Element) -> Void
  ) -> [ListNode<Element>] {
    var opened: [ListNode<Element>] = []
    for node in nodes where !shared.contains(ObjectIdentifier(node)) {
      if node.isLeaf {
        for element in node.elements { visit(element) }
      } else {
        opened.append(contentsOf: node.children)
      }
    }
    return opened
  }
}
