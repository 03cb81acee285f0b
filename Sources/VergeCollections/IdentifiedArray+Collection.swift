extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  /// A position in the array: an `Int` from 0.
  public typealias Index = Int
  /// The valid indices, `0..<count`.
  public typealias Indices = Range<Int>
  /// A contiguous range of the array's elements.
  public typealias SubSequence = Slice<IdentifiedArray>

  /// The position of the first element: 0.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var startIndex: Int { 0 }

  /// The position past the last element: `count`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var endIndex: Int { list.count }

  /// The number of elements.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var count: Int { list.count }

  /// Whether the array is empty.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var isEmpty: Bool { list.count == 0 }

  /// The valid indices, `0..<count`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var indices: Range<Int> { 0..<list.count }

  /// The element at `position`; writing replaces it with an element of the
  /// same id (another id stops the program: use ``subscript(id:)``,
  /// ``remove(at:)`` and ``insert(_:at:)`` to change which elements the
  /// array holds).
  ///
  /// - Parameter position: A valid index.
  /// - Complexity: O(log n), also for a write while a copy is held.
  @inlinable
  public subscript(position: Int) -> Element {
    get {
      guard position >= 0 && position < count else {
        fatalError("IdentifiedArray: index \(position) out of range 0..<\(count)")
      }
      return list.element(at: position)
    }
    set {
      guard position >= 0 && position < count else {
        fatalError("IdentifiedArray: index \(position) out of range 0..<\(count)")
      }
      let slot = list.uniqueElement(index: position)
      checkID(of: newValue, at: position, replacing: slot.pointee)
      slot.pointee = newValue
    }
    _modify {
      guard position >= 0 && position < count else {
        fatalError("IdentifiedArray: index \(position) out of range 0..<\(count)")
      }
      // The element is moved out of its (uniquely owned) leaf and back, so
      // a write to a part of it (`array[i].tags.append(x)`) copies nothing.
      let slot = list.uniqueElement(index: position)
      var element = slot.move()
      defer { slot.initialize(to: element) }
      let old = identify(element)
      yield &element
      checkID(of: element, at: position, oldID: old)
    }
  }

  /// Stops the program when `element` would change the id at `position`.
  @inlinable
  func checkID(of element: Element, at position: Int, replacing old: Element) {
    checkID(of: element, at: position, oldID: identify(old))
  }

  @inlinable
  func checkID(of element: Element, at position: Int, oldID: ID) {
    let newID = identify(element)
    if oldID != newID {
      Misuse.report(
        "IdentifiedArray: the element at index \(position) has id \(String(reflecting: oldID)); writing one with id \(String(reflecting: newID)) would change it"
      )
    }
  }

  /// Iterates the elements in order.
  public struct Iterator: IteratorProtocol {
    /// The elements, kept alive (and shared, so unchanged) while `base`
    /// reads them.
    @usableFromInline let list: PersistentList<Element>
    @usableFromInline var base: PersistentList<Element>.Iterator

    @inlinable
    init(list: PersistentList<Element>) {
      self.list = list
      self.base = list.makeIterator()
    }

    /// The next element, or `nil` at the end.
    ///
    /// - Complexity: O(1) amortized: the iterator walks the tree's leaves.
    @inlinable
    public mutating func next() -> Element? {
      base.next()
    }
  }

  /// An iterator over the elements in order.
  ///
  /// - Complexity: O(log n) to start; iterating all costs O(n).
  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(list: list)
  }

  /// The number of elements.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var underestimatedCount: Int { list.count }
}
