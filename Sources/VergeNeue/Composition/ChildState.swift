/// A way to reach a composed child's state in its parent's state: through
/// a stored property's offset (``StoredChildState``) or through a key path
/// (``KeyPathChildState``). These two are the only code that reaches a
/// child's state; ``StateField``, which `embed`, `forEach`, `ifLet` and
/// every scope hold, is resolved to one of them once.
@usableFromInline
protocol ChildState<Root, Value>: Sendable {
  associatedtype Root
  associatedtype Value

  /// Runs `body` on the child's state in `root`, in place.
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result
}

/// What is made from a child's place once its kind is known: `embed`'s,
/// `forEach`'s or `ifLet`'s composition. ``StateField/resolved(_:)`` calls
/// it with the place's own type, so that the composition is specialized
/// for it: its reduction reaches the child's state with a single access,
/// which the optimizer inlines together with the child's reduction. A
/// composition holding a `StateField` would choose between the two ways
/// on every action, at a few instructions per access.
@usableFromInline
protocol ChildStateMaker<Root, Value> {
  associatedtype Root
  associatedtype Value
  associatedtype Made

  /// Makes the thing for the child's state at `place`.
  func callAsFunction<Place: ChildState<Root, Value>>(_ place: Place) -> Made
}
