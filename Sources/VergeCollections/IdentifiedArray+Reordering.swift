import Foundation

extension IdentifiedArray {
  /// Moves the elements at `source` so that they stand, in their order,
  /// just before the element that was at `destination` (as SwiftUI's
  /// `onMove` and `Array.move(fromOffsets:toOffset:)` do).
  ///
  /// - Parameters:
  ///   - source: The indices of the elements to move.
  ///   - destination: An index in `0...count`, counted before the move.
  /// - Complexity: O(k log n) amortized for k moved elements; the rest of
  ///   the array stays shared with its copies.
  @inlinable
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    guard destination >= 0 && destination <= count else {
      fatalError("IdentifiedArray: destination \(destination) out of range 0...\(count)")
    }
    guard let last = source.last else { return }
    guard source.first! >= 0 && last < count else {
      fatalError("IdentifiedArray: source offsets out of range 0..<\(count)")
    }
    var moved: [Element] = []
    moved.reserveCapacity(source.count)
    for index in source.reversed() {
      moved.append(remove(at: index))
    }
    var target = destination - source.count(in: 0..<destination)
    for element in moved.reversed() {
      insertNew(element, id: identify(element), at: target)
      target += 1
    }
  }

  /// Exchanges the elements at `i` and `j`.
  ///
  /// - Parameters:
  ///   - i: A valid index.
  ///   - j: A valid index.
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i >= 0 && i < count && j >= 0 && j < count else {
      fatalError("IdentifiedArray: index out of range 0..<\(count)")
    }
    guard i != j else { return }
    let first = list.element(at: i)
    let second = list.element(at: j)
    let firstLabel = list.label(at: i)
    let secondLabel = list.label(at: j)
    list.update(at: i) { $0 = second }
    list.update(at: j) { $0 = first }
    positions.updateValue(firstLabel, forKey: identify(second))
    positions.updateValue(secondLabel, forKey: identify(first))
  }

  /// Sorts the elements in place with `areInIncreasingOrder`.
  ///
  /// - Parameter areInIncreasingOrder: Whether its first argument goes
  ///   before its second.
  /// - Complexity: O(n log n); the array is rebuilt.
  @inlinable
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    var elements = ContiguousArray(self)
    try elements.sort(by: areInIncreasingOrder)
    self = Self.building(elements, identify: identify).0
  }

  /// Reverses the order of the elements.
  ///
  /// - Complexity: O(n log n); the array is rebuilt.
  @inlinable
  public mutating func reverse() {
    self = Self.building(ContiguousArray(reversed()), identify: identify).0
  }

  /// The elements that `isIncluded` selects, in order, as an array of the
  /// same type.
  ///
  /// - Parameter isIncluded: Whether to keep an element.
  /// - Returns: The kept elements.
  /// - Complexity: O(n log n) for the new array's ids.
  @inlinable
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var kept = ContiguousArray<Element>()
    // Leaf by leaf, each leaf's elements in a row.
    var walk = list.leafWalk()
    while true {
      let leaf = walk.nextLeaf()
      if leaf.isEmpty { break }
      for element in leaf where try isIncluded(element) { kept.append(element) }
    }
    return Self.building(kept, identify: identify).0
  }
}

extension IdentifiedArray where Element: Comparable {
  /// Sorts the elements in increasing order.
  ///
  /// - Complexity: O(n log n); the array is rebuilt.
  @inlinable
  public mutating func sort() {
    sort(by: <)
  }
}
