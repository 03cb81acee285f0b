/// A test of whether two values count as the same, as a value that can be
/// combined: Verge's comparators (`EqualityComparator`, `AndComparator`,
/// `OrComparator`), accepted by `Changes.ifChanged(_:_:_:)`.
///
/// ```swift
/// let sameItem = EqualityComparator<Item>()
///   .or(AnyEqualityComparator { $0.id == $1.id && $0.revision == $1.revision })
/// changes.ifChanged({ $0.selection }, sameItem) { item in show(item) }
/// ```
///
/// A plain closure `(Value, Value) -> Bool` does the same where a
/// comparator is accepted; these types are for code that names them.
public protocol TypedComparator<Input>: Sendable {
  /// The compared values' type.
  associatedtype Input

  /// Whether `lhs` and `rhs` count as the same.
  ///
  /// - Parameters:
  ///   - lhs: One value.
  ///   - rhs: The other value.
  /// - Returns: `true` when they are the same.
  func callAsFunction(_ lhs: Input, _ rhs: Input) -> Bool
}

extension TypedComparator {
  /// A comparator that finds values the same when both this one and
  /// `other` do.
  ///
  /// - Parameter other: The second test.
  /// - Returns: The combined comparator.
  public func and<Other: TypedComparator<Input>>(_ other: Other) -> AndComparator<Input, Self, Other> {
    AndComparator(self, other)
  }

  /// A comparator that finds values the same when this one or `other`
  /// does.
  ///
  /// - Parameter other: The second test.
  /// - Returns: The combined comparator.
  public func or<Other: TypedComparator<Input>>(_ other: Other) -> OrComparator<Input, Self, Other> {
    OrComparator(self, other)
  }
}

/// Compares with `==`.
public struct EqualityComparator<Input: Equatable>: TypedComparator {
  /// Creates the comparator.
  public init() {}

  /// Whether `lhs == rhs`.
  ///
  /// - Parameters:
  ///   - lhs: One value.
  ///   - rhs: The other value.
  /// - Returns: `lhs == rhs`.
  public func callAsFunction(_ lhs: Input, _ rhs: Input) -> Bool { lhs == rhs }
}

/// Compares with a closure.
public struct AnyEqualityComparator<Input>: TypedComparator {
  private let areEqual: @Sendable (Input, Input) -> Bool

  /// Creates the comparator.
  ///
  /// - Parameter areEqual: Whether two values are the same.
  public init(_ areEqual: @escaping @Sendable (Input, Input) -> Bool) {
    self.areEqual = areEqual
  }

  /// What the closure says.
  ///
  /// - Parameters:
  ///   - lhs: One value.
  ///   - rhs: The other value.
  /// - Returns: The closure's answer.
  public func callAsFunction(_ lhs: Input, _ rhs: Input) -> Bool { areEqual(lhs, rhs) }
}

extension TypedComparator {
  /// A comparator from a closure, written as Verge's `.any { }` where a
  /// comparator is expected: `OrComparator(.any { $0.a == $1.a }, .any { ... })`.
  ///
  /// - Parameter areEqual: Whether two values are the same.
  /// - Returns: An ``AnyEqualityComparator`` calling `areEqual`.
  public static func any<Value>(
    _ areEqual: @escaping @Sendable (Value, Value) -> Bool
  ) -> AnyEqualityComparator<Value> where Self == AnyEqualityComparator<Value> {
    AnyEqualityComparator(areEqual)
  }
}

/// The same when both comparators say so.
public struct AndComparator<Input, First: TypedComparator<Input>, Second: TypedComparator<Input>>: TypedComparator {
  /// The first test.
  public let first: First
  /// The second test, asked only when the first says the same.
  public let second: Second

  /// Combines two comparators.
  ///
  /// - Parameters:
  ///   - first: The first test.
  ///   - second: The second test.
  public init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  /// Whether both tests find the values the same.
  ///
  /// - Parameters:
  ///   - lhs: One value.
  ///   - rhs: The other value.
  /// - Returns: `first(lhs, rhs) && second(lhs, rhs)`.
  public func callAsFunction(_ lhs: Input, _ rhs: Input) -> Bool { first(lhs, rhs) && second(lhs, rhs) }
}

/// The same when either comparator says so.
public struct OrComparator<Input, First: TypedComparator<Input>, Second: TypedComparator<Input>>: TypedComparator {
  /// The first test.
  public let first: First
  /// The second test, asked only when the first says different.
  public let second: Second

  /// Combines two comparators.
  ///
  /// - Parameters:
  ///   - first: The first test.
  ///   - second: The second test.
  public init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  /// Whether either test finds the values the same.
  ///
  /// - Parameters:
  ///   - lhs: One value.
  ///   - rhs: The other value.
  /// - Returns: `first(lhs, rhs) || second(lhs, rhs)`.
  public func callAsFunction(_ lhs: Input, _ rhs: Input) -> Bool { first(lhs, rhs) || second(lhs, rhs) }
}

extension Changes {
  /// Runs `body` when the value that `select` picks changed, as decided by
  /// `comparator`; see `ifChanged(_:_:_:)` with a closure.
  ///
  /// - Parameters:
  ///   - select: Picks the value from a state.
  ///   - comparator: Decides whether two picked values are the same.
  ///   - body: Receives the value picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @discardableResult
  public func ifChanged<Comparator: TypedComparator, Result>(
    _ select: (State) throws -> Comparator.Input,
    _ comparator: Comparator,
    _ body: (Comparator.Input) throws -> Result
  ) rethrows -> Result? {
    try ifChanged(select, { comparator($0, $1) }, body)
  }
}
