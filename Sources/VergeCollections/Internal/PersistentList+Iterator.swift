extension PersistentList {
  /// Walks the leaves left to right: O(1) amortized per element.
  @usableFromInline
  struct Iterator {
    @usableFromInline var leaf: ContiguousArray<Element>
    @usableFromInline var position: Int
    /// The branches above the current leaf, each with the index of the
    /// next child to visit.
    @usableFromInline var path: ContiguousArray<(node: ListNode<Element>, next: Int)>

    @inlinable
    init(root: ListNode<Element>) {
      leaf = []
      position = 0
      path = []
      descend(to: root)
    }

    @inlinable
    mutating func descend(to start: ListNode<Element>) {
      var node = start
      while !node.isLeaf {
        path.append((node, 1))
        node = node.children[0]
      }
      leaf = node.elements
      position = 0
    }

    @inlinable
    mutating func next() -> Element? {
      if position < leaf.count {
        defer { position &+= 1 }
        return leaf[position]
      }
      while let (node, next) = path.last {
        if next < node.children.count {
          path[path.count &- 1].next = next &+ 1
          descend(to: node.children[next])
          if position < leaf.count {
            defer { position &+= 1 }
            return leaf[position]
          }
        } else {
          path.removeLast()
        }
      }
      return nil
    }
  }

  @inlinable
  func makeIterator() -> Iterator {
    Iterator(root: root)
  }
}
