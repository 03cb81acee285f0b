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
  @_disfavoredOverload @discardableResult
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
  @_disfavoredOverload @discardableResult
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
  @_disfavoredOverload @discardableResult
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
  @_disfavoredOverload @discardableResult
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
}
