/// What `forEach(_:action:element:)` composes: a parent feature and one
/// element feature per element of the identified array at `place`.
@usableFromInline
final class ForEachComposition<Parent: ActionReducer, Element: ActionReducer, Place: ChildState>: ChildComposition
where
  Place.Root == Parent.State, Place.Value == IdentifiedArrayOf<Element.State>, Element.Activity == Parent.Activity,
  Element.State: Identifiable, Element.State.ID: Sendable
{
  @usableFromInline typealias Elements = IdentifiedArrayOf<Element.State>

  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let place: Place
  /// The elements' key path, which names their effects.
  @usableFromInline let owner: WritableKeyPath<Parent.State, Elements> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, (id: Element.State.ID, action: Element.Action)>

  @inlinable
  init(
    parent: Parent, element: Element, place: Place, owner: WritableKeyPath<Parent.State, Elements> & Sendable,
    action: ActionCase<Parent.Action, (id: Element.State.ID, action: Element.Action)>
  ) {
    self.parent = parent
    self.element = element
    self.place = place
    self.owner = owner
    self.action = action
  }

  /// Reduces an element's action with the element, then any action with
  /// the parent; then cancels the effects of the elements the reduction
  /// removed.
  @inlinable @inline(__always)
  func reduce(into state: inout Parent.State, action parentAction: Parent.Action) -> Effect<
    Parent.Action, Parent.Activity
  > {
    var childEffect = Effect<Parent.Action, Parent.Activity>.none
    if let (id, elementAction) = action.extract(parentAction),
      let effect = place.modify(&state, { $0.modify(id: id) { element.reduce(into: &$0, action: elementAction) } }),
      !effect.isNone
    {
      childEffect = effect.map { [action] in action.embed((id, $0)) }
        .cancellable(id: ChildEffects(owner: owner, element: id))
    }
    // Held across the parent's reduction, so that a change of ids replaces
    // the storage. An element's reduction keeps its id (the array checks),
    // so reading it after that reduction is the same.
    let idsBefore = place.modify(&state) { $0.idStorage }
    let parentEffect = parent.reduce(into: &state, action: parentAction)
    // Most actions add, remove and move no element: one comparison of
    // addresses tells, and nothing else runs.
    if place.modify(&state, { $0.hasIDStorage(identicalTo: idsBefore) }) {
      return childEffect.merge(with: parentEffect)
    }
    let removed = place.modify(&state) { $0.idsRemoved(since: idsBefore) }
    guard !removed.isEmpty else { return childEffect.merge(with: parentEffect) }
    return .cancelling(
      removed.lazy.map { [owner] in ChildEffects(owner: owner, element: $0) }, child: childEffect,
      parent: parentEffect)
  }
}
