/// One case of a parent's action enum that carries a child feature's
/// actions: how to wrap a child action, and how to find one in a parent
/// action.
///
/// ```swift
/// enum Action { case counter(CounterFeature.Action), reset }
///
/// let counterCase = ActionCase<Action, CounterFeature.Action>(Action.counter) {
///   if case .counter(let action) = $0 { action } else { nil }
/// }
/// ```
public struct ActionCase<Parent: Sendable, Child: Sendable>: Sendable {
  /// Wraps a child action into the parent's.
  public let embed: @Sendable (Child) -> Parent
  /// The child action a parent action carries, or `nil` for other cases.
  public let extract: @Sendable (Parent) -> Child?

  /// Creates a case from its two directions.
  ///
  /// - Parameters:
  ///   - embed: Wraps a child action (pass the case itself: `Action.counter`).
  ///   - extract: Finds the child action in a parent action.
  public init(_ embed: @escaping @Sendable (Child) -> Parent, extract: @escaping @Sendable (Parent) -> Child?) {
    self.embed = embed
    self.extract = extract
  }
}
