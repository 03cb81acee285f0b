/// What `embed(_:state:action:)` composes: a parent feature and a child
/// feature on the part of its state at `field`.
@usableFromInline
final class EmbedComposition<Parent: ActionReducer, Child: ActionReducer>: ChildComposition
where Child.Activity == Parent.Activity {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let field: StateField<Parent.State, Child.State>
  /// The scope of the child's effect ids: its state's key path and its
  /// feature's type, so that two children embedded at two places (or two
  /// features at one place) each have ids of their own.
  @usableFromInline let scope: EffectID
  @usableFromInline let action: ActionCase<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, state: WritableKeyPath<Parent.State, Child.State> & Sendable,
    action: ActionCase<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    field = StateField(state)
    scope = EffectID(ChildEffects(owner: state, element: ObjectIdentifier(Child.self)))
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
    let childEffect = field.modify(&state) { child.reduce(into: &$0, action: childAction) }
    let parentEffect = parent.reduce(into: &state, action: parentAction)
    guard !childEffect.isNone else { return parentEffect }
    return childEffect.embedded(action.embed, scope: scope, marked: false).merge(with: parentEffect)
  }
}
