/// A value selected from a change, present only when it changed: what
/// `changes.ifChanged(\.field)` returns without a closure, as in Verge.
///
/// ```swift
/// changes.ifChanged(\.count).do { count in label.text = "\(count)" }
/// ```
public struct IfChangedBox<Value> {
  /// The new value, or `nil` when it did not change.
  public let value: Value?

  /// Wraps a value that changed, or `nil` when it did not.
  ///
  /// - Parameter value: The new value, or `nil`.
  @inlinable
  public init(_ value: Value?) {
    self.value = value
  }

  /// Runs `body` with the value when it changed.
  ///
  /// - Parameter body: Receives the new value.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func `do`<Result>(_ body: (Value) throws -> Result) rethrows -> Result? {
    guard let value else { return nil }
    return try body(value)
  }
}

extension IfChangedBox: Sendable where Value: Sendable {}
