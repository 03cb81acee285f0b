extension IdentifiedArray: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The elements as an array prints them: `[a, b]`.
  ///
  /// - Complexity: O(n).
  public var description: String {
    elements.description
  }

  /// The type and the elements: `IdentifiedArray<Int, Row>([a, b])`.
  ///
  /// - Complexity: O(n).
  public var debugDescription: String {
    "IdentifiedArray<\(ID.self), \(Element.self)>(\(elements.debugDescription))"
  }

  /// A mirror showing the elements as a collection (as `dump` and debuggers
  /// show an array).
  ///
  /// - Complexity: O(n).
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}
