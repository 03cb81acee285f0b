/// The id under which an embedded child's effects run: the key path of its
/// state and, in a collection, its element's id.
@usableFromInline
struct ChildEffects<Path: Hashable & Sendable, Element: Hashable & Sendable>: Hashable, Sendable {
  let owner: Path
  let element: Element

  @usableFromInline
  init(owner: Path, element: Element) {
    self.owner = owner
    self.element = element
  }
}

/// A parent feature with a child feature embedded; made by
/// `ActionReducer.embed(_:state:action:)`, `forEach(_:action:element:)` and
/// `ifLet(_:action:then:)`, and composed further the same way.
public struct Composed<Parent: ActionReducer>: ActionReducer {
  /// The parent's state.
  public typealias State = Parent.State
  /// The parent's actions.
  public typealias Action = Parent.Action
  /// The parent's activities, which its children share.
  public typealias Activity = Parent.Activity

  /// The parent feature (possibly itself composed).
  public let parent: Parent
  @usableFromInline let child: @Sendable (inout State, Action) -> Effect<Action, Activity>
  /// Given the state before a reduction, what to cancel given the state
  /// after it: the effects of the children it removed.
  @usableFromInline let watchingRemovals: (@Sendable (State) -> (State) -> Effect<Action, Activity>)?

  @usableFromInline
  init(
    parent: Parent,
    child: @escaping @Sendable (inout State, Action) -> Effect<Action, Activity>,
    watchingRemovals: (@Sendable (State) -> (State) -> Effect<Action, Activity>)? = nil
  ) {
    self.parent = parent
    self.child = child
    self.watchingRemovals = watchingRemovals
  }

  /// Reduces `action` with the child first, then with the parent; then
  /// cancels the effects of children the reduction removed.
  ///
  /// - Parameters:
  ///   - state: The parent's state, in place.
  ///   - action: What happened.
  /// - Returns: The child's effects, mapped to the parent's actions, with
  ///   the parent's.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    guard let watchingRemovals else {
      let childEffect = child(&state, action)
      let parentEffect = parent.reduce(into: &state, action: action)
      return childEffect.isNone ? parentEffect : childEffect.merge(with: parentEffect)
    }
    let removals = watchingRemovals(state)
    let childEffect = child(&state, action)
    let parentEffect = parent.reduce(into: &state, action: action)
    let cancellations = removals(state)
    guard !cancellations.isNone else {
      return childEffect.isNone ? parentEffect : childEffect.merge(with: parentEffect)
    }
    // A child removed by this very reduction starts nothing.
    return .merge(cancellations, childEffect.droppingRuns(cancelledBy: cancellations), parentEffect)
  }
}
