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
/// Every write takes a stamp unique in the process. Two edges are equal
/// when they carry the same write (one is a copy of the other with no write
/// in between), or, as in Verge, when their values are equal: a value that
/// is `Equatable`, or a tuple of up to six `Equatable` values. A value that
/// is neither is compared by stamps alone, so there an assignment of an
/// equal value still counts as a change. Member lookup reads the wrapped
/// value (`state.$image.size`).
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
  /// Whether the two edges carry the same write, or equal values when the
  /// value is `Equatable` (or a tuple of up to six `Equatable` values).
  ///
  /// - Complexity: O(1) when the stamps are equal; otherwise one `==` of
  ///   the values when they can be compared.
  public static func == (lhs: Edge, rhs: Edge) -> Bool {
    lhs.version == rhs.version || valuesAreEqual(lhs.value, rhs.value) == true
  }
}

/// Whether two values are equal, when they can be compared: `Equatable`
/// values, and tuples of up to six of them (as the standard library's
/// tuple `==` goes).
///
/// - Returns: `nil` when the values cannot be compared.
func valuesAreEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
  if let lhs = lhs as? any Equatable {
    func compare<Compared: Equatable>(_ lhs: Compared) -> Bool { (rhs as? Compared).map { lhs == $0 } ?? false }
    return compare(lhs)
  }
  guard isComparableTuple(Value.self, sample: lhs) else { return nil }
  for (a, b) in zip(Mirror(reflecting: lhs).children, Mirror(reflecting: rhs).children) {
    guard let a = a.value as? any Equatable else { return nil }
    func compare<Compared: Equatable>(_ lhs: Compared) -> Bool { (b.value as? Compared).map { lhs == $0 } ?? false }
    if !compare(a) { return false }
  }
  return true
}

/// Which value types are tuples of one to six `Equatable` values, decided
/// once per type: reflecting on a value allocates, so a type that is not
/// such a tuple is looked up here instead, and `Edge`'s `==` stays cheap.
private let comparableTuples = LockedBox<[ObjectIdentifier: Bool]>([:])

private func isComparableTuple(_ type: Any.Type, sample: Any) -> Bool {
  let key = ObjectIdentifier(type)
  if let known = comparableTuples.withLock({ $0[key] }) { return known }
  let mirror = Mirror(reflecting: sample)
  let comparable = mirror.displayStyle == .tuple && (1...6).contains(mirror.children.count)
    && mirror.children.allSatisfy { $0.value is any Equatable }
  comparableTuples.withLock { $0[key] = comparable }
  return comparable
}

extension Edge: Sendable where Value: Sendable {}

extension Edge: CustomStringConvertible {
  /// The wrapped value's description.
  public var description: String {
    "\(value)"
  }
}
