/// Verge's tuple form of `ifChanged`: the selected tuple reaches `body` as
/// one argument.
extension Changes {
  /// Runs `body` with the tuple that `select` picks, taken as one
  /// argument as Verge passes it, when any element changed (compared with
  /// `==` element by element). Tuples of two to five values; the spread
  /// form (`{ first, last in }`) works as well.
  ///
  /// ```swift
  /// changes.ifChanged({ ($0.firstName, $0.lastName) }) { name in greet(name.0, name.1) }
  /// ```
  ///
  /// - Parameters:
  ///   - select: Picks a tuple of 2 values from a state.
  ///   - body: Receives the tuple picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @_disfavoredOverload @discardableResult
  public func ifChanged<T0: Equatable, T1: Equatable, Result>(
    _ select: (State) throws -> (T0, T1),
    _ body: ((T0, T1)) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 else { return nil }
    }
    return try body(new)
  }

  /// Runs `body` with the 3 values that `select` picks, as one tuple
  /// argument, when any of them changed; see the first overload.
  ///
  /// - Parameters:
  ///   - select: Picks a tuple of 3 values from a state.
  ///   - body: Receives the tuple picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @_disfavoredOverload @discardableResult
  public func ifChanged<T0: Equatable, T1: Equatable, T2: Equatable, Result>(
    _ select: (State) throws -> (T0, T1, T2),
    _ body: ((T0, T1, T2)) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 else { return nil }
    }
    return try body(new)
  }

  /// Runs `body` with the 4 values that `select` picks, as one tuple
  /// argument, when any of them changed; see the first overload.
  ///
  /// - Parameters:
  ///   - select: Picks a tuple of 4 values from a state.
  ///   - body: Receives the tuple picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @_disfavoredOverload @discardableResult
  public func ifChanged<T0: Equatable, T1: Equatable, T2: Equatable, T3: Equatable, Result>(
    _ select: (State) throws -> (T0, T1, T2, T3),
    _ body: ((T0, T1, T2, T3)) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 || old.3 != new.3 else { return nil }
    }
    return try body(new)
  }

  /// Runs `body` with the 5 values that `select` picks, as one tuple
  /// argument, when any of them changed; see the first overload.
  ///
  /// - Parameters:
  ///   - select: Picks a tuple of 5 values from a state.
  ///   - body: Receives the tuple picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @_disfavoredOverload @discardableResult
  public func ifChanged<T0: Equatable, T1: Equatable, T2: Equatable, T3: Equatable, T4: Equatable, Result>(
    _ select: (State) throws -> (T0, T1, T2, T3, T4),
    _ body: ((T0, T1, T2, T3, T4)) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 || old.3 != new.3 || old.4 != new.4 else { return nil }
    }
    return try body(new)
  }

  /// The value that `select` picks, to act on only if it changed: Verge's
  /// `ifChanged({ $0.count }).do { }` form.
  ///
  /// - Parameter select: Picks the value from a state.
  /// - Returns: The value when it changed (or on a first delivery), for `do`.
  @inlinable
  public func ifChanged<Value: Equatable>(_ select: (State) throws -> Value) rethrows -> IfChangedBox<Value> {
    IfChangedBox(try takeIfChanged(select))
  }

  /// The 2 values that `select` picks, as one tuple, to act on only if
  /// any changed: Verge's `ifChanged({ ($0.a, $0.b) }).do { }` form.
  ///
  /// - Parameter select: Picks a tuple of 2 values from a state.
  /// - Returns: The tuple when any element changed (or on a first
  ///   delivery), for `do`.
  public func ifChanged<T0: Equatable, T1: Equatable>(_ select: (State) throws -> (T0, T1)) rethrows -> IfChangedBox<(T0, T1)> {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 else { return IfChangedBox(nil) }
    }
    return IfChangedBox(new)
  }

  /// The 3 values that `select` picks, as one tuple, to act on only if
  /// any changed: Verge's `ifChanged({ ($0.a, $0.b) }).do { }` form.
  ///
  /// - Parameter select: Picks a tuple of 3 values from a state.
  /// - Returns: The tuple when any element changed (or on a first
  ///   delivery), for `do`.
  public func ifChanged<T0: Equatable, T1: Equatable, T2: Equatable>(_ select: (State) throws -> (T0, T1, T2)) rethrows -> IfChangedBox<(T0, T1, T2)> {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 else { return IfChangedBox(nil) }
    }
    return IfChangedBox(new)
  }

  /// The 4 values that `select` picks, as one tuple, to act on only if
  /// any changed: Verge's `ifChanged({ ($0.a, $0.b) }).do { }` form.
  ///
  /// - Parameter select: Picks a tuple of 4 values from a state.
  /// - Returns: The tuple when any element changed (or on a first
  ///   delivery), for `do`.
  public func ifChanged<T0: Equatable, T1: Equatable, T2: Equatable, T3: Equatable>(_ select: (State) throws -> (T0, T1, T2, T3)) rethrows -> IfChangedBox<(T0, T1, T2, T3)> {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 || old.3 != new.3 else { return IfChangedBox(nil) }
    }
    return IfChangedBox(new)
  }

  /// The 5 values that `select` picks, as one tuple, to act on only if
  /// any changed: Verge's `ifChanged({ ($0.a, $0.b) }).do { }` form.
  ///
  /// - Parameter select: Picks a tuple of 5 values from a state.
  /// - Returns: The tuple when any element changed (or on a first
  ///   delivery), for `do`.
  public func ifChanged<T0: Equatable, T1: Equatable, T2: Equatable, T3: Equatable, T4: Equatable>(_ select: (State) throws -> (T0, T1, T2, T3, T4)) rethrows -> IfChangedBox<(T0, T1, T2, T3, T4)> {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 || old.3 != new.3 || old.4 != new.4 else { return IfChangedBox(nil) }
    }
    return IfChangedBox(new)
  }
}
