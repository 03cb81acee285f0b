extension ListNode {
  /// Makes child `index` of this (uniquely referenced) branch uniquely
  /// referenced and holding all its own children, copying it when another
  /// list shares it, for a change of its structure. This node settles
  /// first (see ``settle()``), so that the child's reference count tells
  /// whether another node shares it.
  @inlinable
  func makeChildUnique(_ index: Int) {
    settle()
    Self.makeUniqueSettled(&(childBase + index).pointee)
  }

  /// Restores the fill of child `index` of this (uniquely referenced) branch
  /// after a removal left it below ``minimumFill``: merges it with a sibling
  /// when both fit in one node, otherwise shares their entries evenly.
  @inlinable
  func rebalance(child index: Int) {
    settle()
    guard width > 1 else {
      if childBase[index].count > 0 { refresh(child: index) }
      return
    }
    let left = index &+ 1 < width ? index : index &- 1
    let right = left &+ 1
    makeChildUnique(left)
    let widthA = childBase[left].width
    let widthB = childBase[right].width
    if widthA &+ widthB <= childBase[left].maxWidth {
      // The right sibling's entries are moved when no other list shares it,
      // copied otherwise; then it is dropped.
      Self.reserve(&childBase[left], extra: widthB)
      let consuming = isKnownUniquelyReferenced(&childBase[right])
      let a = childBase[left]
      let b = childBase[right]
      a.count &+= b.count
      Self.transfer(from: b, 0..<widthB, to: a, at: widthA, consuming: consuming)
      if consuming { b.count = 0 }
      removeChild(at: right)
      refresh(child: left)
      return
    }
    makeChildUnique(right)
    let target = (widthA &+ widthB) / 2
    if widthA < target {
      let moved = target &- widthA
      Self.reserve(&childBase[left], extra: moved)
      let a = childBase[left]
      let b = childBase[right]
      let movedCount = b.isLeaf ? moved : b.counts[..<moved].reduce(0, &+)
      Self.transfer(from: b, 0..<moved, to: a, at: widthA, consuming: true)
      a.count &+= movedCount
      b.count &-= movedCount
    } else {
      let moved = widthA &- target
      let start = widthA &- moved
      Self.reserve(&childBase[right], extra: moved)
      let a = childBase[left]
      let b = childBase[right]
      let movedCount = a.isLeaf ? moved : a.counts[start...].reduce(0, &+)
      Self.transfer(from: a, start..<widthA, to: b, at: 0, consuming: true)
      a.count &-= movedCount
      b.count &+= movedCount
    }
    refresh(child: left)
    refresh(child: right)
  }
}
