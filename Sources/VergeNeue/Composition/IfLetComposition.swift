/// What `ifLet(_:action:then:)` composes: a parent feature and a child
/// feature running while the optional state at `field` is present.
@usableFromInline
final class IfLetComposition<Parent: ActionReducer, Child: ActionReducer>: ChildComposition
where Child.Activity == Parent.Activity {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let field: StateField<Parent.State, Child.State?>
  /// The optional state's key path, which scopes the child's effects.
  @usableFromInline let owner: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, state: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    action: ActionCase<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    field = StateField(state)
    owner = state
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
      let effect = field.modify(&state) { optional -> Effect<Child.Action, Parent.Activity>? in
        guard optional != nil else { return nil }
        return child.reduce(into: &optional!, action: childAction)
      }
      wasPresent = effect != nil
      if let effect, !effect.isNone {
        childEffect = effect.embedded(
          action.embed, scope: EffectID(ChildEffects(owner: owner, element: 0)), marked: true)
      }
    } else {
      wasPresent = field.modify(&state) { $0 != nil }
    }
    let parentEffect = parent.reduce(into: &state, action: parentAction)
    guard wasPresent && field.modify(&state, { $0 == nil }) else { return childEffect.merge(with: parentEffect) }
    return .cancelling(
      CollectionOfOne(ChildEffects(owner: owner, element: 0)), child: childEffect, parent: parentEffect)
  }
}
