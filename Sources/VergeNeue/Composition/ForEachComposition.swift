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
  /// The elements' key path, which with an element's id scopes that
  /// element's effects.
  @usableFromInline let owner: WritableKeyPath<Parent.State, Elements> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, (id: Element.State.ID, action: Element.Action)>
  /// The elements' tasks that may still run, so that an action finds
  /// removed elements only when some element has a task to cancel.
  @usableFromInline let running = RunningEffects()

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
  ///
  /// Removed elements are looked for only while some element may have a
  /// task running (see `RunningEffects`): finding them needs the ids'
  /// storage from before the parent's reduction, and holding it makes a
  /// removal or insertion by the parent copy the path it writes.
  @inlinable @inline(__always)
  func reduce(into state: inout Parent.State, action parentAction: Parent.Action) -> Effect<
    Parent.Action, Parent.Activity
  > {
    let tasksMayRun = !running.isIdle
    var childEffect = Effect<Parent.Action, Parent.Activity>.none
    var childID: Element.State.ID?
    if let (id, elementAction) = action.extract(parentAction),
      let effect = place.modify(&state, { $0.modify(id: id) { element.reduce(into: &$0, action: elementAction) } }),
      !effect.isNone
    {
      // The element's ids are its own, and its tasks are marked with its
      // scope, which its removal cancels.
      childEffect = effect.embedded(
        { [action] in action.embed((id, $0)) }, scope: EffectID(ChildEffects(owner: owner, element: id)), marked: true)
      childID = id
    }
    guard tasksMayRun else {
      let parentEffect = parent.reduce(into: &state, action: parentAction)
      guard let childID else { return parentEffect }
      // The element's tasks start only if the parent kept the element.
      if place.modify(&state, { $0[id: childID] == nil }) {
        return .cancelling(
          CollectionOfOne(ChildEffects(owner: owner, element: childID)), child: childEffect, parent: parentEffect)
      }
      return started(childEffect).merge(with: parentEffect)
    }
    // Held across the parent's reduction, so that a change of ids replaces
    // the storage. An element's reduction keeps its id (the array checks),
    // so reading it after that reduction is the same.
    let idsBefore = place.modify(&state) { $0.idStorage }
    let parentEffect = parent.reduce(into: &state, action: parentAction)
    // Most actions add, remove and move no element: one comparison of
    // addresses tells, and nothing else runs.
    if place.modify(&state, { $0.hasIDStorage(identicalTo: idsBefore) }) {
      return started(childEffect).merge(with: parentEffect)
    }
    let removed = place.modify(&state) { $0.idsRemoved(since: idsBefore) }
    guard !removed.isEmpty else { return started(childEffect).merge(with: parentEffect) }
    // A removed element's own tasks are dropped by `cancelling`, unstarted.
    let childKept = childID.map { id in !removed.contains(id) } ?? false
    return .cancelling(
      removed.lazy.map { [owner] in ChildEffects(owner: owner, element: $0) },
      child: childKept ? started(childEffect) : childEffect, parent: parentEffect)
  }

  /// `effect`, an element's, with its tasks counted as running until they
  /// end.
  @inlinable
  func started(_ effect: Effect<Parent.Action, Parent.Activity>) -> Effect<Parent.Action, Parent.Activity> {
    guard !effect.isNone else { return effect }
    let (reporting, tasks) = effect.reportingEnds(to: running)
    if tasks > 0 { running.add(tasks) }
    return reporting
  }
}

/// Makes a `ForEachComposition` for the kind of place its elements have
/// (`ChildStateMaker`).
@usableFromInline
struct ForEachMaker<Parent: ActionReducer, Element: ActionReducer>: ChildStateMaker
where Element.Activity == Parent.Activity, Element.State: Identifiable, Element.State.ID: Sendable {
  @usableFromInline typealias Elements = IdentifiedArrayOf<Element.State>
  @usableFromInline typealias Root = Parent.State
  @usableFromInline typealias Value = Elements
  @usableFromInline typealias Made = Composed<Parent>

  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let owner: WritableKeyPath<Parent.State, Elements> & Sendable
  @usableFromInline let action: ActionCase<Parent.Action, (id: Element.State.ID, action: Element.Action)>

  @inlinable
  init(
    parent: Parent, element: Element, owner: WritableKeyPath<Parent.State, Elements> & Sendable,
    action: ActionCase<Parent.Action, (id: Element.State.ID, action: Element.Action)>
  ) {
    self.parent = parent
    self.element = element
    self.owner = owner
    self.action = action
  }

  @inlinable
  func callAsFunction<Place: ChildState<Parent.State, Elements>>(_ place: Place) -> Composed<Parent> {
    Composed(ForEachComposition(parent: parent, element: element, place: place, owner: owner, action: action))
  }
}
