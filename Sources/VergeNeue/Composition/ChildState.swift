/// Where a composed child's state lives in its parent's state, resolved
/// once when the feature is composed.
///
/// Each composing function forms its reduction for one kind of place (``StoredChildState`` or
/// ``KeyPathChildState``), so that it reaches the child's state with a
/// single access, which the optimizer inlines together with the child's
/// reduction. One function choosing between the two ways at run time would
/// call its body from two places, and the body would stay a call of its
/// own. ``ChildStateMaker/callAsFunction(at:)`` is the one place that
/// chooses.
@usableFromInline
protocol ChildState<Root, Value>: Sendable {
  associatedtype Root
  associatedtype Value

  /// Runs `body` on the child's state in `root`, in place.
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result
}

/// What is made from a child's place once its kind is known: `embed`'s,
/// `forEach`'s or `ifLet`'s composition. Specialized for each kind of place
/// where it is called.
@usableFromInline
protocol ChildStateMaker<Root, Value> {
  associatedtype Root
  associatedtype Value
  associatedtype Made

  /// Makes the thing for the child's state at `place`.
  func callAsFunction<Place: ChildState<Root, Value>>(_ place: Place) -> Made
}

extension ChildStateMaker {
  /// Makes the thing for the child's state at `keyPath`: reached through its
  /// offset when the key path has one (a stored property, possibly several
  /// deep), so that each action reaches the child in place through a
  /// pointer; through the key path otherwise (a computed property, a
  /// subscript, a class).
  @inlinable
  func callAsFunction(at keyPath: WritableKeyPath<Root, Value> & Sendable) -> Made {
    if let offset = MemoryLayout<Root>.offset(of: keyPath) {
      return self(StoredChildState(offset: offset))
    }
    return self(KeyPathChildState(keyPath))
  }
}
