/// A state field kept in its own heap box and copied on write: Verge's
/// `ReferenceEdge`, for a large value that many copies of the state share
/// until one of them writes it.
///
/// ```swift
/// struct State: Equatable {
///   @ReferenceEdge var catalog = Catalog()   // copied only when written
/// }
/// ```
///
/// Copying the state copies a reference; a write through one copy leaves
/// the others untouched. Two edges holding the same box are equal without
/// comparing; otherwise their values are compared.
@propertyWrapper
public struct ReferenceEdge<Value> {
  final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  private var box: Box

  /// Creates an edge holding `wrappedValue`.
  ///
  /// - Parameter wrappedValue: The initial value.
  public init(wrappedValue: Value) {
    box = Box(wrappedValue)
  }

  /// The value. A write copies the box first when another copy shares it.
  public var wrappedValue: Value {
    get { box.value }
    set {
      if isKnownUniquelyReferenced(&box) {
        box.value = newValue
      } else {
        box = Box(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
      yield &box.value
    }
  }

  /// The edge itself, as `$field`.
  public var projectedValue: ReferenceEdge<Value> {
    self
  }

  /// Whether two edges share one box (then they are equal without
  /// comparing their values).
  ///
  /// - Parameter other: The other edge.
  /// - Returns: `true` when both hold the same box.
  public func sharesStorage(with other: ReferenceEdge<Value>) -> Bool {
    box === other.box
  }
}

extension ReferenceEdge: Equatable where Value: Equatable {
  /// Equal when both share one box, or when their values are equal.
  ///
  /// - Complexity: O(1) when they share a box; otherwise one `==`.
  public static func == (lhs: ReferenceEdge, rhs: ReferenceEdge) -> Bool {
    lhs.box === rhs.box || lhs.box.value == rhs.box.value
  }
}

extension ReferenceEdge: Sendable where Value: Sendable {}
