/// Where a composed child's state lives in its parent's state, resolved
/// once when the feature is composed.
///
/// Each composing function forms its reduction for one kind of place
/// (``StoredChildState`` or ``KeyPathChildState``), so that the reduction
/// reaches the child's state with a single access, which the optimizer
/// inlines together with the child's reduction. One function choosing
/// between the two ways at run time would call its body from two places,
/// and the body would stay a call of its own.
@usableFromInline
protocol ChildState<Root, Value>: Sendable {
  associatedtype Root
  associatedtype Value

  /// Runs `body` on the child's state in `root`, in place.
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result
}
