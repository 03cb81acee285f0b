/// What `embed(_:state:action:)` composes: a parent feature and a child
/// feature on the part of its state at `place`.
@usableFromInline
final class EmbedComposition<Parent: ActionReducer, Child: ActionReducer, Place: ChildState>: ChildComposition
where Place.Root == Parent.State, Place.Value == Child.State, Child.Activity == Parent.Activity {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let place: Place
  /// The scope of the child's effect ids: its state's key path and its
  /// feature's type, so that two children embedded at two places (or two
  /// features at one place) each have ids of their own.
  @usableFromInline let scope: EffectID
  @usableFromInline let action: ActionCase<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, place: Place, owner: WritableKeyPath<Parent.State, Child.State> & Sendable,
    action: ActionCase<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.place = place
    scope = EffectID(ChildEffects(owner: owner, element: ObjectIdentifier(Child.self)))
    self.action = action
  }

  /// Reduces a child's action with the child, then any action with the
  /// parent.
  @inlinable @inline(__always)
  func reduce(into state: inout Parent.State, action parentAction: Parent.Action) -> Effect<
    Parent.Action, Parent.Activity
  > {
    guard let childAction = action.extract(parentAction) else {
      return parent.reduce(into: &state, action: parentAction)
    }
    let childEffect = place.modify(&state) { child.reduce(into: &$0, action: childAction) }
    let parentEffect = parent.reduce(into: &state, action: parentAction)
    guard !childEffect.isNone else { return parentEffect }
    return childEffect.embedded(action.embed, scope: scope, marked: false).merge(with: parentEffect)
  }
}

/// Makes an `EmbedComposition` for the kind of place its child's state
/// has (`ChildStateMaker`).
@usableFromInline
struct EmbedMaker<Parent: ActionReducer, Child: ActionReducer>: ChildStateMaker
where Child.Activity == Parent.Activity {
  @usableFromInline typealias Root = Parent.State
  @usableFromInline typealias Value = Child.State
  @usableFromInline typealias Made = Composed<Parent>

  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let owner: WritableKeyPath<Parent.State, Child.State> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, owner: WritableKeyPath<Parent.State, Child.State> & Sendable,
    action: ActionCase<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.owner = owner
    self.action = action
  }

  @inlinable
  func callAsFunction<Place: ChildState<Parent.State, Child.State>>(_ place: Place) -> Composed<Parent> {
    Composed(EmbedComposition(parent: parent, child: child, place: place, owner: owner, action: action))
  }
}
