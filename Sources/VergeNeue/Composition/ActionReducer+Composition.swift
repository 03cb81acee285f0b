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
    Composed(parent: self) { state_, parentAction in
      guard let childAction = action.extract(parentAction) else { return .none }
      return child.reduce(into: &state_[keyPath: state], action: childAction).map(action.embed)
    }
  }

  /// This feature with one `element` feature per element of the
  /// collection at `state`, each identified by its `id`.
  ///
  /// An action for an element that is no longer there is ignored. When the
  /// parent (or the element itself) removes an element, the effects it
  /// still runs are cancelled.
  ///
  /// - Parameters:
  ///   - state: Where the elements live in this feature's state.
  ///   - action: The case of this feature's actions that carries an
  ///     element's id and action (`.row(id:action:)`).
  ///   - element: The feature of one element.
  /// - Returns: A feature that runs the parent and the elements.
  /// - Complexity: O(n) per action for n elements: the element is found,
  ///   and removed elements are looked for, by id.
  @inlinable
  public func forEach<Element: ActionReducer>(
    _ state: WritableKeyPath<State, [Element.State]> & Sendable,
    action: ActionCase<Action, (id: Element.State.ID, action: Element.Action)>,
    element: Element
  ) -> Composed<Self> where Element.Activity == Activity, Element.State: Identifiable, Element.State.ID: Sendable {
    Composed(parent: self) { state_, parentAction in
      guard let (id, elementAction) = action.extract(parentAction),
        let index = state_[keyPath: state].firstIndex(where: { $0.id == id })
      else { return .none }
      let effect = element.reduce(into: &state_[keyPath: state][index], action: elementAction)
      return effect.isNone
        ? .none : effect.map { action.embed((id, $0)) }.cancellable(id: ChildEffects(owner: state, element: id))
    } watchingRemovals: { before in
      let ids = before[keyPath: state].map(\.id)
      return { after in
        let remaining = Set(after[keyPath: state].map(\.id))
        return .merge(ids.filter { !remaining.contains($0) }.map { .cancel(id: ChildEffects(owner: state, element: $0)) })
      }
    }
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
    Composed(parent: self) { state_, parentAction in
      guard let childAction = action.extract(parentAction), state_[keyPath: state] != nil else { return .none }
      let effect = child.reduce(into: &state_[keyPath: state]!, action: childAction)
      return effect.isNone
        ? .none : effect.map(action.embed).cancellable(id: ChildEffects(owner: state, element: 0))
    } watchingRemovals: { before in
      let wasPresent = before[keyPath: state] != nil
      return { after in
        wasPresent && after[keyPath: state] == nil ? .cancel(id: ChildEffects(owner: state, element: 0)) : .none
      }
    }
  }
}
