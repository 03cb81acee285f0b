extension IdentifiedArray {
  /// The results of `transform` on each element, in order.
  ///
  /// The elements are read leaf by leaf, each leaf's in a row, not looked
  /// up by index one at a time.
  ///
  /// - Parameter transform: Maps an element.
  /// - Returns: The results, in the elements' order.
  /// - Complexity: O(n).
  @inlinable
  public func map<T, Failure: Error>(_ transform: (Element) throws(Failure) -> T) throws(Failure) -> [T] {
    // The results are written straight into the new array's storage: an
    // `append` per element would check capacity and uniqueness each time.
    var failure: Failure?
    let result = [T](unsafeUninitializedCapacity: count) { results, initialized in
      var walk = list.leafWalk()
      while true {
        let leaf = walk.nextLeaf()
        if leaf.isEmpty { return }
        for element in leaf {
          do throws(Failure) {
            (results.baseAddress.unsafelyUnwrapped + initialized).initialize(to: try transform(element))
          } catch {
            failure = error
            return
          }
          initialized &+= 1
        }
      }
    }
    if let failure { throw failure }
    return result
  }

  /// The position of the first element that satisfies `predicate`, or
  /// `nil`.
  ///
  /// - Parameter predicate: Whether an element is the one looked for.
  /// - Returns: Its index.
  /// - Complexity: O(n).
  @inlinable
  public func firstIndex(where predicate: (Element) throws -> Bool) rethrows -> Int? {
    var start = 0
    var walk = list.leafWalk()
    while true {
      let leaf = walk.nextLeaf()
      if leaf.isEmpty { return nil }
      for offset in leaf.indices where try predicate(leaf[offset]) { return start &+ offset }
      start &+= leaf.count
    }
  }

  /// Calls `body` on each element, in order.
  ///
  /// The elements are read leaf by leaf, each leaf's in a row.
  ///
  /// - Parameter body: Called with each element.
  /// - Complexity: O(n).
  @inlinable
  public func forEach(_ body: (Element) throws -> Void) rethrows {
    try list.forEachBuffer { elements in
      for element in elements { try body(element) }
    }
  }

  /// How many elements satisfy `predicate`.
  ///
  /// - Parameter predicate: Whether to count an element.
  /// - Returns: The number of elements counted.
  /// - Complexity: O(n).
  @inlinable
  public func count<Failure: Error>(where predicate: (Element) throws(Failure) -> Bool) throws(Failure) -> Int {
    var total = 0
    try list.forEachBuffer { (elements) throws(Failure) in
      for element in elements where try predicate(element) { total &+= 1 }
    }
    return total
  }

  /// Whether an element satisfies `predicate`.
  ///
  /// - Parameter predicate: Whether an element is the one looked for.
  /// - Returns: `true` at the first element that satisfies it.
  /// - Complexity: O(n).
  @inlinable
  public func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool {
    var walk = list.leafWalk()
    while true {
      let leaf = walk.nextLeaf()
      if leaf.isEmpty { return false }
      for element in leaf where try predicate(element) { return true }
    }
  }
}

extension IdentifiedArray where Element: Equatable {
  /// Whether the array holds an element equal to `element`.
  ///
  /// - Parameter element: The element to look for.
  /// - Returns: `true` at the first equal element.
  /// - Complexity: O(n).
  @inlinable
  public func contains(_ element: Element) -> Bool {
    contains { $0 == element }
  }
}
