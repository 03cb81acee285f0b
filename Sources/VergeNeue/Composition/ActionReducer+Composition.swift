/// Composition of enum-action features, as Redux's `combineReducers` and
/// The Composable Architecture's `Scope`, `forEach` and `ifLet` do: a parent
/// feature embeds child features, one root store runs the whole tree.
///
/// ```swift
/// let app = AppFeature()
///   .embed(CounterFeature(), state: \.counter, action: AppFeature.counterCase)
///   .forEach(\.rows, action: AppFeature.rowCase, element: RowFeature())
///   .ifLet(\.detail, action: AppFeature.detailCase, then: DetailFeature())
/// let store = ActionStore(initialState: AppFeature.State(), reducer: app)
/// ```
///
/// In each, a child action is reduced by the child first, on its part of
/// the state, and then by the parent, which sees the child's change and can
/// react to it (a row's `.delete` removes the row). The child's effects
/// send their actions back through the parent (`Effect.map`). Removing a
/// child (a collection element, an optional set to `nil`) cancels the
/// effects it still runs.
///
/// Each child's cancellation ids are its own: each element of a `forEach`
/// (by its id), each `embed` (by its state's key path and its feature's
/// type) and each `ifLet`. A row's `.cancel(id: CancelID.timer)` cancels
/// that row's timer, not its siblings', and a parent's `.cancel(id:)`
/// cancels only what its own reduction marked (see `Effect.cancel(id:)`).
extension ActionReducer {
  /// This feature with `child` embedded on the part of the state at
  /// `state` and the case `action` of this feature's actions.
  ///
  /// - Parameters:
  ///   - child: The child feature.
  ///   - state: Where its state lives in this feature's state.
  ///   - action: The case of this feature's actions that carries its actions.
  /// - Returns: A feature that runs both.
  @inlinable
  public func embed<Child: ActionReducer>(
    _ child: Child,
    state: WritableKeyPath<State, Child.State> & Sendable,
    action: ActionCase<Action, Child.Action>
  ) -> Composed<Self> where Child.Activity == Activity {
    StateField(state).resolved(EmbedMaker(parent: self, child: child, owner: state, action: action))
  }

  /// This feature with one `element` feature per element of the
  /// identified array at `state`.
  ///
  /// An action for an element that is no longer there is ignored. When the
  /// parent (or the element itself) removes an element, the effects it
  /// still runs are cancelled.
  ///
  /// ```swift
  /// struct State: Equatable {
  ///   var rows: IdentifiedArrayOf<RowFeature.State> = []
  /// }
  /// ListFeature().forEach(\.rows, action: ListFeature.rowCase, element: RowFeature())
  /// ```
  ///
  /// - Parameters:
  ///   - state: Where the elements live in this feature's state: an
  ///     `IdentifiedArray`, which finds an element by id in O(log n).
  ///   - action: The case of this feature's actions that carries an
  ///     element's id and action (`.row(id:action:)`).
  ///   - element: The feature of one element.
  /// - Returns: A feature that runs the parent and the elements.
  /// - Complexity: An element's action finds and reduces the element in
  ///   place in O(log n). Removed elements are looked for only when the
  ///   reduction added, removed or moved ids, in time proportional to what
  ///   changed; otherwise, and for any action of no element, nothing scans
  ///   the elements. A stored property at `state` is reached in place
  ///   through its offset, computed once here; a computed one through the
  ///   key path, on every action.
  @inlinable
  public func forEach<Element: ActionReducer>(
    _ state: WritableKeyPath<State, IdentifiedArrayOf<Element.State>> & Sendable,
    action: ActionCase<Action, (id: Element.State.ID, action: Element.Action)>,
    element: Element
  ) -> Composed<Self> where Element.Activity == Activity, Element.State: Identifiable, Element.State.ID: Sendable {
    StateField(state).resolved(ForEachMaker(parent: self, element: element, owner: state, action: action))
  }

  /// This feature with `child` running while the optional state at
  /// `state` is present.
  ///
  /// A child action while the state is `nil` is ignored. When the state
  /// becomes `nil`, the effects the child still runs are cancelled.
  ///
  /// - Parameters:
  ///   - state: Where the optional child state lives.
  ///   - action: The case of this feature's actions that carries its actions.
  ///   - child: The child feature.
  /// - Returns: A feature that runs both.
  @inlinable
  public func ifLet<Child: ActionReducer>(
    _ state: WritableKeyPath<State, Child.State?> & Sendable,
    action: ActionCase<Action, Child.Action>,
    then child: Child
  ) -> Composed<Self> where Child.Activity == Activity {
    StateField(state).resolved(IfLetMaker(parent: self, child: child, owner: state, action: action))
  }
}
