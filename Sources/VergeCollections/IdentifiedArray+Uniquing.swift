extension IdentifiedArray {
  /// An empty array whose elements are identified by the key path `id`.
  ///
  /// - Parameter id: The key path of an element's id.
  /// - Complexity: O(1).
  @inlinable
  public init(id: KeyPath<Element, ID>) {
    self.init(uniqueElements: [], id: id)
  }

  /// An array of `elements` identified by `id`, keeping one element per
  /// id: of two with one id, `combine` returns the one to keep (it may
  /// merge them), at the position of the first.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order.
  ///   - id: The key path of an element's id.
  ///   - combine: Given the element kept so far and a later one with the
  ///     same id, returns the element to keep.
  /// - Throws: What `combine` throws; the array is then not made.
  /// - Complexity: O(n log n).
  @inlinable
  public init<S: Sequence>(
    _ elements: S, id: KeyPath<Element, ID>, uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows where S.Element == Element {
    self.init(id: id)
    try merge(elements, uniquingIDsWith: combine)
  }

  /// Appends each element, or combines it with the element already held
  /// under its id, in place.
  @inlinable
  mutating func merge<S: Sequence>(
    _ elements: S, uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows where S.Element == Element {
    for element in elements {
      // `modify` stops the program if `combine` changed the id.
      if try modify(id: identify(element), { $0 = try combine($0, element) }) == nil {
        append(element)
      }
    }
  }
}

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// An array of `elements`, keeping one element per id: of two with one
  /// id, `combine` returns the one to keep (it may merge them), at the
  /// position of the first.
  ///
  /// ```swift
  /// let rows = IdentifiedArrayOf<Row>(fetched, uniquingIDsWith: { _, newer in newer })
  /// ```
  ///
  /// - Parameters:
  ///   - elements: The elements, in order.
  ///   - combine: Given the element kept so far and a later one with the
  ///     same id, returns the element to keep.
  /// - Throws: What `combine` throws; the array is then not made.
  /// - Complexity: O(n log n).
  @inlinable
  public init<S: Sequence>(
    _ elements: S, uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows where S.Element == Element {
    self.init()
    try merge(elements, uniquingIDsWith: combine)
  }

  /// An array of `elements`, whose ids the caller knows to be unique.
  ///
  /// The same as ``init(uniqueElements:)``, which also checks: the name is
  /// The Composable Architecture's, for code that moves here. A duplicate
  /// id stops the program with a message naming it.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Complexity: O(n log n).
  @inlinable
  public init<S: Sequence>(uncheckedUniqueElements elements: S) where S.Element == Element {
    self.init(uniqueElements: elements, identify: { $0.id }, from: "init(uncheckedUniqueElements:)")
  }
}
