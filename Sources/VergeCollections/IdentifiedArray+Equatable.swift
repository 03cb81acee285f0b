extension IdentifiedArray: Equatable where Element: Equatable {
  /// Whether the two arrays hold equal elements in the same order.
  ///
  /// - Complexity: O(1) for an array and its copy; for two versions of one
  ///   array, proportional to what differs (nodes both share are skipped
  ///   without looking inside): O(log n) when one element was written; O(n)
  ///   for unrelated arrays.
  @inlinable
  public static func == (lhs: IdentifiedArray, rhs: IdentifiedArray) -> Bool {
    var visited = 0
    return lhs.list.elementsEqual(rhs.list, visited: &visited)
  }

  /// `==`, counting the tree nodes it examined (those not shared), for
  /// tests of its cost.
  @inlinable
  package func isEqual(to other: IdentifiedArray, visitedNodes: inout Int) -> Bool {
    list.elementsEqual(other.list, visited: &visitedNodes)
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the count and every element in order, consistently with `==`.
  ///
  /// - Parameter hasher: The hasher to feed.
  /// - Complexity: O(n).
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}
