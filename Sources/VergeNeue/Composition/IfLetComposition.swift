/// What `ifLet(_:action:then:)` composes: a parent feature and a child
/// feature running while the optional state at `place` is present.
@usableFromInline
final class IfLetComposition<Parent: ActionReducer, Child: ActionReducer, Place: ChildState>: ChildComposition
where Place.Root == Parent.State, Place.Value == Child.State?, Child.Activity == Parent.Activity {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let place: Place
  /// The optional state's key path, which scopes the child's effects.
  @usableFromInline let owner: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, place: Place, owner: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    action: ActionCase<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.place = place
    self.owner = owner
    self.action = action
  }

  /// Reduces a child's action with the child while its state is present,
  /// then any action with the parent; then cancels the child's effects if
  /// the reduction set its state to `nil`.
  @inlinable @inline(__always)
  func reduce(into state: inout Parent.State, action parentAction: Parent.Action) -> Effect<
    Parent.Action, Parent.Activity
  > {
    var childEffect = Effect<Parent.Action, Parent.Activity>.none
    let wasPresent: Bool
    if let childAction = action.extract(parentAction) {
      let effect = place.modify(&state) { optional -> Effect<Child.Action, Parent.Activity>? in
        guard optional != nil else { return nil }
        return child.reduce(into: &optional!, action: childAction)
      }
      wasPresent = effect != nil
      if let effect, !effect.isNone {
        childEffect = effect.embedded(
          action.embed, scope: EffectID(ChildEffects(owner: owner, element: 0)), marked: true)
      }
    } else {
      wasPresent = place.modify(&state) { $0 != nil }
    }
    let parentEffect = parent.reduce(into: &state, action: parentAction)
    guard wasPresent && place.modify(&state, { $0 == nil }) else { return childEffect.merge(with: parentEffect) }
    return .cancelling(
      CollectionOfOne(ChildEffects(owner: owner, element: 0)), child: childEffect, parent: parentEffect)
  }
}

/// Makes an `IfLetComposition` for the kind of place its optional child
/// state has (`ChildStateMaker`).
@usableFromInline
struct IfLetMaker<Parent: ActionReducer, Child: ActionReducer>: ChildStateMaker
where Child.Activity == Parent.Activity {
  @usableFromInline typealias Root = Parent.State
  @usableFromInline typealias Value = Child.State?
  @usableFromInline typealias Made = Composed<Parent>

  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let owner: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, owner: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    action: ActionCase<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.owner = owner
    self.action = action
  }

  @inlinable
  func callAsFunction<Place: ChildState<Parent.State, Child.State?>>(_ place: Place) -> Composed<Parent> {
    Composed(IfLetComposition(parent: parent, child: child, place: place, owner: owner, action: action))
  }
}
