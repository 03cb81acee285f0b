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
  /// Calls the composition's `reduce(into:action:)`: formed in
  /// `init(_:)`, which the composing function calls where the parent's and
  /// the child's types are known, so one call through this closure runs
  /// both reductions specialized and inlined.
  @usableFromInline let run: @Sendable (inout State, Action) -> Effect<Action, Activity>

  /// Kept out of line, so that the closure is formed in one place for each
  /// kind of composition however many places compose one: formed in each
  /// caller it was inlined into, it got a forwarder per caller, which the
  /// optimizer merged into one that jumps to the other (four instructions
  /// more on every action).
  @inlinable @inline(never)
  init(_ composition: some ChildComposition<Parent>) {
    parent = composition.parent
    run = { composition.reduce(into: &$0, action: $1) }
  }

  /// Reduces `action` with the child first, then with the parent; then
  /// cancels the effects of children the reduction removed.
  ///
  /// - Parameters:
  ///   - state: The parent's state, in place.
  ///   - action: What happened.
  /// - Returns: The child's effects, mapped to the parent's actions, with
  ///   the parent's.
  /// - Complexity: The child's and the parent's reductions plus a constant
  ///   per level of composition (for `forEach`, O(log n) to find the
  ///   element, and time proportional to the ids that changed when the
  ///   reduction added, removed or moved elements).
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    run(&state, action)
  }
}
