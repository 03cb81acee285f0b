import Verge

// A feature with its own enum-action reducer on a part of a root store that
// has no enum-action reducer of its own (a core `Store`, a `ReducerStore`, a
// method `ScopedStore`). An `ActionStore` root composes its features
// instead (`embed`, `forEach`, `ifLet`, then `scope(state:action:)`).
//
// Each root has three overloads, so the child's activities are checked by
// the compiler: of the root's type, `Never`, or both `Never` (which the
// first two would otherwise both match).

extension ScopedActionStore {
  /// A scope whose actions `reducer` reduces into `anchor` with an
  /// `ActionEngine` of its own; what it returns keeps that engine alive.
  /// Under a scope that overrides dependencies, the feature runs with its
  /// values, as a reducer given `dependency(_:_:)` would.
  convenience init<Feature: ActionReducer>(anchor: any ScopeAnchor<State>, reducer: Feature)
  where Feature.State == State, Feature.Action == Action {
    if let values = anchor.dependencyOverride {
      self.init(anchor: anchor, running: DependencyOverriding(base: reducer) { $0 = values })
    } else {
      self.init(anchor: anchor, running: reducer)
    }
  }

  private convenience init<Feature: ActionReducer>(anchor: any ScopeAnchor<State>, running reducer: Feature)
  where Feature.State == State, Feature.Action == Action {
    let root = anchor.root
    let engine = ActionEngine(
      feature: reducer, access: anchor, middlewares: [], activitySink: { _ = root.sendActivity($0) },
      onEffectError: EffectFailure.log, dependencies: root.dependencies)
    self.init(fragment: ScopeFragment(source: anchor)) { action in
      StoreTask(ticket: engine.send(action, cause: .send).ticket, owner: engine)
    }
  }
}

extension Store {
  /// A feature with its own enum-action reducer on the part of this state
  /// at `keyPath`; see `ScopedActionStore`. Each action is committed here in
  /// place, named after the action, so commit middlewares see it.
  ///
  /// ```swift
  /// let store = Store<Chat, ChatActivity>(initialState: Chat())
  /// let draft = store.scope(\.draft, reducer: DraftFeature())
  /// draft.send(.edit("hello"))                 // store.state.draft.text == "hello"
  /// ```
  ///
  /// An `ActionStore` has no such scope: its features compose (embed the
  /// feature in its reducer, then `ActionStore.scope(state:action:)`).
  /// Errors the feature's effects throw and do not catch are written to
  /// standard error by `EffectFailure.log(_:)`.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this state.
  ///   - reducer: The part's feature; its activities are this store's.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Activity> where Child.Activity == Activity {
    ScopedActionStore(anchor: anchor(StateField(keyPath)), reducer: reducer)
  }

  /// `scope(_:reducer:)` for a feature that sends no activities.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Activity> where Child.Activity == Never {
    ScopedActionStore(anchor: anchor(StateField(keyPath)), reducer: reducer)
  }
}

extension Store where Activity == Never {
  /// `scope(_:reducer:)` when neither this store nor the feature has activities.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Never> where Child.Activity == Never {
    ScopedActionStore(anchor: anchor(StateField(keyPath)), reducer: reducer)
  }
}

extension ReducerStore {
  /// A feature with its own enum-action reducer on the part of this state
  /// at `keyPath`; see `ScopedActionStore`. Each action is committed through
  /// this store's pipeline as a mutation named after the action, so its
  /// middlewares, `Recorder` and `UndoHistory` see it. (An `ActionStore`
  /// composes its features instead; see `ScopedActionStore`.)
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this state.
  ///   - reducer: The part's feature; its activities are this store's.
  /// - Returns: The scoped store; it keeps this store alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Activity> where Child.Activity == Activity {
    ScopedActionStore(anchor: anchor(StateField(keyPath)), reducer: reducer)
  }

  /// `scope(_:reducer:)` for a feature that sends no activities.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Activity> where Child.Activity == Never {
    ScopedActionStore(anchor: anchor(StateField(keyPath)), reducer: reducer)
  }
}

extension ReducerStore where Reducer.TargetActivity == Never {
  /// `scope(_:reducer:)` when neither this store nor the feature has activities.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Never> where Child.Activity == Never {
    ScopedActionStore(anchor: anchor(StateField(keyPath)), reducer: reducer)
  }
}

extension ScopedStore {
  /// A feature with its own enum-action reducer on a part of this
  /// fragment; see `ScopedActionStore`. It writes through the same root,
  /// as this scope's mutations do.
  ///
  /// - Parameters:
  ///   - keyPath: Where the part lives in this fragment.
  ///   - reducer: The part's feature; its activities are this scope's.
  /// - Returns: The scoped store; it keeps the root alive.
  /// - Complexity: O(1); it subscribes to nothing until asked to.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Activity> where Child.Activity == Activity {
    ScopedActionStore(anchor: anchor.appending(StateField(keyPath)), reducer: reducer)
  }

  /// `scope(_:reducer:)` for a feature that sends no activities.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Activity> where Child.Activity == Never {
    ScopedActionStore(anchor: anchor.appending(StateField(keyPath)), reducer: reducer)
  }
}

extension ScopedStore where Reducer.TargetActivity == Never {
  /// `scope(_:reducer:)` when neither this scope nor the feature has activities.
  public func scope<Child: ActionReducer>(
    _ keyPath: WritableKeyPath<State, Child.State> & Sendable, reducer: Child
  ) -> ScopedActionStore<Child.State, Child.Action, Never> where Child.Activity == Never {
    ScopedActionStore(anchor: anchor.appending(StateField(keyPath)), reducer: reducer)
  }
}
