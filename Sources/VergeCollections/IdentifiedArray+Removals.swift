import Foundation

extension IdentifiedArray {
  /// Removes the element with `id`.
  ///
  /// - Parameter id: The id of the element to remove.
  /// - Returns: The removed element, or `nil` when there was none.
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let label = positions.removeValue(forKey: id) else { return nil }
    return list.remove(at: list.index(ofLabel: label)).element
  }

  /// Removes the element at `index`.
  ///
  /// - Parameter index: A valid index of the array.
  /// - Returns: The removed element.
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    guard index >= 0 && index < count else {
      fatalError("IdentifiedArray: index \(index) out of range 0..<\(count)")
    }
    let element = list.remove(at: index).element
    positions.removeValue(forKey: identify(element))
    return element
  }

  /// Removes the elements at `offsets` (as SwiftUI's `onDelete` hands
  /// them).
  ///
  /// - Parameter offsets: Valid indices of the array.
  /// - Complexity: O(k log n) for k offsets; the rest of the array stays
  ///   shared with its copies.
  @inlinable
  public mutating func remove(atOffsets offsets: IndexSet) {
    guard let last = offsets.last else { return }
    guard offsets.first! >= 0 && last < count else {
      fatalError("IdentifiedArray: offsets out of range 0..<\(count)")
    }
    for index in offsets.reversed() { remove(at: index) }
  }

  /// Removes the elements that `shouldBeRemoved` selects, keeping the
  /// others in order.
  ///
  /// - Parameter shouldBeRemoved: Whether to remove an element.
  /// - Complexity: O(n) to test every element, plus O(k log n) to remove k
  ///   of them (the array keeps sharing the rest with its copies), or O(n)
  ///   when k is a large share of n (the array is rebuilt).
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var doomed: [Int] = []
    var index = 0
    for element in self {
      if try shouldBeRemoved(element) { doomed.append(index) }
      index += 1
    }
    if doomed.isEmpty { return }
    if doomed.count <= count / 16 {
      for index in doomed.reversed() { remove(at: index) }
      return
    }
    var kept = ContiguousArray<Element>()
    kept.reserveCapacity(count - doomed.count)
    var next = 0
    index = 0
    for element in self {
      if next < doomed.count && doomed[next] == index {
        next += 1
      } else {
        kept.append(element)
      }
      index += 1
    }
    self = Self.building(kept, identify: identify).0
  }

  /// Removes every element.
  ///
  /// - Complexity: O(1) (the nodes are released when no copy holds them).
  @inlinable
  public mutating func removeAll() {
    list = PersistentList()
    positions = PersistentMap()
  }
}
