/// What a composing function (`embed`, `forEach`, `ifLet`) composes: a
/// parent feature, a child feature and where the child's state lives, as
/// one object.
///
/// `Composed` keeps a closure that captures this object and calls
/// ``reduce(into:action:)``, which is inlined there, specialized for the
/// concrete features. The closure's context then holds one reference, and
/// each action reads only the parts it needs from it: capturing the parts
/// one by one made every call unpack all of them.
@usableFromInline
protocol ChildComposition<Parent>: AnyObject, Sendable {
  associatedtype Parent: ActionReducer

  /// The parent feature.
  var parent: Parent { get }

  /// Reduces `action` with the child and the parent, and returns their
  /// effects with the cancellations of the children the reduction removed.
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action, Parent.Activity>
}
