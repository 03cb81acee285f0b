extension IdentifiedArray: RangeReplaceableCollection where Element: Identifiable, ID == Element.ID {
  /// Replaces the elements in `subrange` with `newElements`, keeping ids
  /// unique.
  ///
  /// The elements in `subrange` are removed first. Then each new element
  /// is inserted in order from `subrange.lowerBound`, except one whose id
  /// the array still holds (outside `subrange`, or earlier in
  /// `newElements`): that one replaces the element with its id where it
  /// is, as ``updateOrInsert(_:at:)`` does, and takes no new position.
  ///
  /// This is the operation the generic `RangeReplaceableCollection`
  /// methods use (`insert(contentsOf:at:)`, `replaceSubrange`, `+`, and
  /// `append(_:)` when called through a generic `RangeReplaceableCollection`,
  /// which so replaces an element with the same id instead of ignoring the
  /// new one, as the array's own ``append(_:)`` does).
  ///
  /// - Parameters:
  ///   - subrange: Positions of the array, within `0...count`.
  ///   - newElements: The elements to put there.
  /// - Complexity: O((k + m) log n) for k removed and m new elements.
  @inlinable
  public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == Element {
    guard subrange.lowerBound >= 0 && subrange.upperBound <= count else {
      fatalError("IdentifiedArray: range \(subrange) out of range 0...\(count)")
    }
    removeSubrange(subrange)
    var position = subrange.lowerBound
    for element in newElements where updateOrInsert(element, at: position).originalMember == nil {
      position += 1
    }
  }
}

extension IdentifiedArray {
  /// Removes and returns the first element.
  ///
  /// - Returns: The element that was first.
  /// - Precondition: The array is not empty.
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func removeFirst() -> Element {
    if isEmpty {
      fatalError("IdentifiedArray: removeFirst() on an empty array")
    }
    return remove(at: 0)
  }

  /// Removes the first `k` elements.
  ///
  /// - Parameter k: How many, in `0...count`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func removeFirst(_ k: Int) {
    guard k >= 0 && k <= count else {
      fatalError("IdentifiedArray: removeFirst(\(k)) on an array of \(count)")
    }
    removeSubrange(0..<k)
  }

  /// Removes and returns the last element.
  ///
  /// - Returns: The element that was last.
  /// - Precondition: The array is not empty.
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    if isEmpty {
      fatalError("IdentifiedArray: removeLast() on an empty array")
    }
    return remove(at: count - 1)
  }

  /// Removes the last `k` elements.
  ///
  /// - Parameter k: How many, in `0...count`.
  /// - Complexity: O(k log n).
  @inlinable
  public mutating func removeLast(_ k: Int) {
    guard k >= 0 && k <= count else {
      fatalError("IdentifiedArray: removeLast(\(k)) on an array of \(count)")
    }
    removeSubrange((count - k)..<count)
  }

  /// Removes and returns the last element, or returns `nil` when the array
  /// is empty.
  ///
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  public mutating func popLast() -> Element? {
    isEmpty ? nil : remove(at: count - 1)
  }

  /// Removes the elements at `bounds`.
  ///
  /// - Parameter bounds: Positions of the array, within `0...count`.
  /// - Complexity: O(k log n) for k elements; O(1) for all of them.
  @inlinable
  public mutating func removeSubrange(_ bounds: Range<Int>) {
    guard bounds.lowerBound >= 0 && bounds.upperBound <= count else {
      fatalError("IdentifiedArray: range \(bounds) out of range 0...\(count)")
    }
    if bounds.count == count {
      removeAll()
      return
    }
    for index in bounds.reversed() { remove(at: index) }
  }

  /// Removes the elements at the positions `bounds` describes
  /// (`array.removeSubrange(2...)`).
  ///
  /// - Parameter bounds: A range expression of positions of the array.
  /// - Complexity: O(k log n) for k elements.
  @inlinable
  public mutating func removeSubrange<R: RangeExpression>(_ bounds: R) where R.Bound == Int {
    removeSubrange(bounds.relative(to: indices))
  }

  /// Removes every element; `keepingCapacity` has no effect (the elements
  /// live in shared nodes, not in one buffer to keep).
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func removeAll(keepingCapacity: Bool) {
    removeAll()
  }
}
