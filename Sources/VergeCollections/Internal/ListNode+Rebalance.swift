extension ListNode {
  /// Makes child `index` of this (uniquely referenced) branch uniquely
  /// referenced, copying it when another list shares it.
  @inlinable
  func makeChildUnique(_ index: Int) {
    if !isKnownUniquelyReferenced(&children[index]) {
      children[index] = ListNode(copying: children[index])
    }
  }

  /// Restores the fill of child `index` of this (uniquely referenced) branch
  /// after a removal left it below ``minimumFill``: merges it with a sibling
  /// when both fit in one node, otherwise shares their entries evenly.
  @inlinable
  func rebalance(child index: Int) {
    guard children.count > 1 else {
      if children[index].count > 0 { refresh(child: index) }
      return
    }
    let left = index &+ 1 < children.count ? index : index &- 1
    let right = left &+ 1
    makeChildUnique(left)
    let a = children[left]
    let b = children[right]
    if a.width + b.width <= a.capacity {
      if a.isLeaf {
        a.labels.append(contentsOf: b.labels)
        a.elements.append(contentsOf: b.elements)
      } else {
        a.labels.append(contentsOf: b.labels)
        a.counts.append(contentsOf: b.counts)
        a.children.append(contentsOf: b.children)
      }
      a.count += b.count
      children.remove(at: right)
      counts.remove(at: right)
      labels.remove(at: right)
      refresh(child: left)
      return
    }
    makeChildUnique(right)
    let b2 = children[right]
    let target = (a.width + b2.width) / 2
    if a.width < target {
      let moved = target - a.width
      if a.isLeaf {
        a.labels.append(contentsOf: b2.labels[..<moved])
        a.elements.append(contentsOf: b2.elements[..<moved])
        b2.labels.removeSubrange(..<moved)
        b2.elements.removeSubrange(..<moved)
        a.count += moved
        b2.count -= moved
      } else {
        let movedCount = b2.counts[..<moved].reduce(0, +)
        a.labels.append(contentsOf: b2.labels[..<moved])
        a.counts.append(contentsOf: b2.counts[..<moved])
        a.children.append(contentsOf: b2.children[..<moved])
        b2.labels.removeSubrange(..<moved)
        b2.counts.removeSubrange(..<moved)
        b2.children.removeSubrange(..<moved)
        a.count += movedCount
        b2.count -= movedCount
      }
    } else {
      let moved = a.width - target
      let start = a.width - moved
      if a.isLeaf {
        b2.labels.insert(contentsOf: a.labels[start...], at: 0)
        b2.elements.insert(contentsOf: a.elements[start...], at: 0)
        a.labels.removeSubrange(start...)
        a.elements.removeSubrange(start...)
        a.count -= moved
        b2.count += moved
      } else {
        let movedCount = a.counts[start...].reduce(0, +)
        b2.labels.insert(contentsOf: a.labels[start...], at: 0)
        b2.counts.insert(contentsOf: a.counts[start...], at: 0)
        b2.children.insert(contentsOf: a.children[start...], at: 0)
        a.labels.removeSubrange(start...)
        a.counts.removeSubrange(start...)
        a.children.removeSubrange(start...)
        a.count -= movedCount
        b2.count += movedCount
      }
    }
    refresh(child: left)
    refresh(child: right)
  }
}
