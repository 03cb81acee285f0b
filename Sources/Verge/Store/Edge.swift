import Synchronization

/// Stamps for `Edge` writes, unique in the process.
private let edgeStamps = Atomic<UInt64>(0)

/// A state field compared by its writes rather than by its value: for values
/// that are not `Equatable`, or too costly to compare, so that a state
/// holding one can still be `Equatable`.
///
/// ```swift
/// struct State: Equatable {
///   @Edge var image: DecodedImage = .placeholder   // not Equatable
///   var title = ""
/// }
///
/// store.commit { $0.image = decoded }              // a write: a new stamp
/// changes.ifChanged(\.$image) { edge in show(edge.wrappedValue) }
/// ```
///
/// Every write takes a stamp unique in the process, so two edges are equal
/// exactly when one is a copy of the other with no write in between: an
/// assignment of an equal value still counts as a change. Member lookup
/// reads the wrapped value (`state.$image.size`).
@propertyWrapper
@dynamicMemberLookup
public struct Edge<Value> {
  private var value: Value

  /// The stamp of the last write (or of creation); equal stamps mean the
  /// same write, so the same value.
  public private(set) var version: UInt64

  /// Creates an edge around `wrappedValue`.
  ///
  /// - Parameter wrappedValue: The initial value.
  public init(wrappedValue: Value) {
    value = wrappedValue
    version = Self.nextStamp()
  }

  /// The value. Every write through it takes a new stamp.
  public var wrappedValue: Value {
    get { value }
    set {
      value = newValue
      version = Self.nextStamp()
    }
  }

  /// The edge itself, as `$field`, to compare or select by its version
  /// (`changes.ifChanged(\.$field)`).
  public var projectedValue: Edge<Value> {
    self
  }

  /// Reads a property of the wrapped value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
    value[keyPath: keyPath]
  }

  private static func nextStamp() -> UInt64 {
    edgeStamps.add(1, ordering: .relaxed).newValue
  }
}

extension Edge: Equatable {
  /// Whether the two edges carry the same write.
  ///
  /// - Complexity: O(1); the values themselves are never compared.
  public static func == (lhs: Edge, rhs: Edge) -> Bool {
    lhs.version == rhs.version
  }
}

extension Edge: Sendable where Value: Sendable {}

extension Edge: CustomStringConvertible {
  /// The wrapped value's description.
  public var description: String {
    "\(value)"
  }
}
