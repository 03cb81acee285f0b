// Verge's names for what a `Changes` holds and answers, so that code
// migrating from Verge compiles as it is. Each forwards to the member its
// comment names. Verge's `root` and `old` are not offered: as members they
// would hide a state property of that name from member lookup
// (`changes.root` would stop reading the state's `root`).
extension Changes {
  /// The state after the change; Verge's name for ``current``.
  @inlinable
  public var primitive: State { current }

  /// The state before the change, `nil` on a first delivery; Verge's name
  /// for ``previous``.
  @inlinable
  public var previousPrimitive: State? { previous }

  /// This change without its previous state, as a first delivery sees it:
  /// every `ifChanged` runs, and `hasChanged` is `true`.
  ///
  /// ```swift
  /// render(changes.droppedPrevious())   // draws everything, not only what changed
  /// ```
  ///
  /// - Returns: A change from nothing to ``current``, at the same ``version``.
  @inlinable
  public func droppedPrevious() -> Changes {
    Changes(previous: nil, current: current, version: version)
  }

  /// Whether the value at `keyPath` differs from the previous state's;
  /// Verge's name for ``hasChanged(_:)``.
  ///
  /// - Parameter keyPath: The part of the state to compare.
  /// - Returns: `true` when it differs, and on a first delivery.
  @inlinable
  public func hasChanges<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
    hasChanged(keyPath)
  }

  /// Whether the value that `select` picks differs from the previous
  /// state's; Verge's `hasChanges` with a closure.
  ///
  /// - Parameter select: Picks the part of the state to compare.
  /// - Returns: `true` when it differs, and on a first delivery.
  @inlinable
  public func hasChanges<Value: Equatable>(_ select: (State) throws -> Value) rethrows -> Bool {
    try hasChanged(select, comparedBy: ==)
  }

  /// Whether the value at `keyPath` is the same as in the previous state;
  /// Verge's `noChanges`, the opposite of ``hasChanged(_:)``.
  ///
  /// - Parameter keyPath: The part of the state to compare.
  /// - Returns: `true` when it is equal; `false` on a first delivery.
  @inlinable
  public func noChanges<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
    !hasChanged(keyPath)
  }

  /// The change of a value computed from the state, for handing a
  /// projection to code that takes a `Changes`.
  ///
  /// ```swift
  /// let totals = changes.map { $0.items.map(\.price).reduce(0, +) }
  /// ```
  ///
  /// - Parameter transform: Computes the value from a state; runs on both
  ///   states.
  /// - Returns: The change of the computed value, at the same ``version``.
  @inlinable
  public func map<Value>(_ transform: (State) throws -> Value) rethrows -> Changes<Value> {
    Changes<Value>(previous: try previous.map(transform), current: try transform(current), version: version)
  }

  /// The change of an optional part of the state, when the new state has
  /// it; Verge's `mapIfPresent`.
  ///
  /// ```swift
  /// changes.mapIfPresent(\.selection)?.ifChanged(\.title) { title in show(title) }
  /// ```
  ///
  /// - Parameter keyPath: The optional part.
  /// - Returns: `nil` when the new state's value is `nil`; otherwise its
  ///   change, with no previous value when the previous state had none.
  @inlinable
  public func mapIfPresent<Value>(_ keyPath: KeyPath<State, Value?>) -> Changes<Value>? {
    guard let value = current[keyPath: keyPath] else { return nil }
    return Changes<Value>(previous: previous.flatMap { $0[keyPath: keyPath] }, current: value, version: version)
  }
}

extension StateSnapshot {
  /// The whole state; Verge's name for ``current`` (`store.state.primitive`).
  @inlinable
  public var primitive: State { current }
}
