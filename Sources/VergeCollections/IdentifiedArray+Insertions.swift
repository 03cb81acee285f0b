extension IdentifiedArray {
  /// Inserts `element`, whose id the array does not hold, at `index`.
  @inlinable
  mutating func insertNew(_ element: Element, id: ID, at index: Int) {
    var label = list.freeLabel(at: index)
    if label == nil {
      // The neighbours' labels are adjacent: spread a subtree's labels out.
      var positions = self.positions
      self.positions = PersistentMap()
      let identify = self.identify
      list.relabel(around: index) { element, label in
        positions.updateValue(label, forKey: identify(element))
      }
      self.positions = positions
      label = list.freeLabel(at: index)
    }
    guard let label else { fatalError("IdentifiedArray: no order label left after relabelling") }
    list.insert(element, label: label, at: index)
    positions.updateValue(label, forKey: id)
  }

  /// Appends `element` unless the array holds an element with its id.
  ///
  /// - Parameter element: The element to add.
  /// - Returns: Whether it was added, and the index of the element with its
  ///   id (the new one, or the one already there, left unchanged).
  /// - Complexity: O(log n) amortized.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    insert(element, at: count)
  }

  /// Appends the elements of `newElements` whose ids the array does not
  /// hold yet, in order (of two new elements with one id, the first is
  /// kept).
  ///
  /// - Parameter newElements: The elements to add.
  /// - Complexity: O(k log n) for k elements.
  @inlinable
  public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
    for element in newElements { append(element) }
  }

  /// Inserts `element` at `index` unless the array holds an element with
  /// its id.
  ///
  /// - Parameters:
  ///   - element: The element to add.
  ///   - index: Where to insert it, in `0...count`.
  /// - Returns: Whether it was inserted, and the index of the element with
  ///   its id (the new one, or the one already there, left unchanged).
  /// - Complexity: O(log n) amortized. Inserting between two elements
  ///   halves the gap between their order labels; when none is left, the
  ///   labels of the smallest surrounding subtree with room are respread
  ///   (a few dozen elements usually, the whole array rarely).
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    guard index >= 0 && index <= count else {
      fatalError("IdentifiedArray: insertion index \(index) out of range 0...\(count)")
    }
    let id = identify(element)
    if let label = positions[id] { return (false, list.index(ofLabel: label)) }
    insertNew(element, id: id, at: index)
    return (true, index)
  }

  /// Replaces the element with `element`'s id, or appends `element` when
  /// there is none.
  ///
  /// - Parameter element: The new element.
  /// - Returns: The element it replaced, or `nil` when it was appended.
  /// - Complexity: O(log n) amortized, also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let id = identify(element)
    guard let label = positions[id] else {
      insertNew(element, id: id, at: count)
      return nil
    }
    return swap(element, into: &list.uniqueElement(label: label).pointee)
  }

  /// Stores `element` in `slot` and returns what was there.
  @inlinable
  func swap(_ element: Element, into slot: inout Element) -> Element {
    var element = element
    Swift.swap(&element, &slot)
    return element
  }

  /// Replaces the element with `element`'s id where it is, or inserts
  /// `element` at `index` when there is none.
  ///
  /// - Parameters:
  ///   - element: The new element.
  ///   - index: Where to insert it when its id is new, in `0...count`.
  /// - Returns: The element it replaced (`nil` when inserted) and the
  ///   element's index.
  /// - Complexity: O(log n) amortized, also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func updateOrInsert(_ element: Element, at index: Int) -> (originalMember: Element?, index: Int) {
    let id = identify(element)
    guard let label = positions[id] else {
      guard index >= 0 && index <= count else {
        fatalError("IdentifiedArray: insertion index \(index) out of range 0...\(count)")
      }
      insertNew(element, id: id, at: index)
      return (nil, index)
    }
    let existing = list.index(ofLabel: label)
    let old = list.update(at: existing) { old in
      defer { old = element }
      return old
    }
    return (old, existing)
  }

  /// Replaces the element at `index` with `element`, which has the same id.
  ///
  /// - Parameters:
  ///   - element: The new element; an id other than the one at `index`
  ///     stops the program with a message naming both.
  ///   - index: A valid index of the array.
  /// - Returns: The element it replaced.
  /// - Complexity: O(log n), also while a copy is held.
  @inlinable
  @discardableResult
  public mutating func update(_ element: Element, at index: Int) -> Element {
    let old = self[index]
    self[index] = element
    return old
  }
}
