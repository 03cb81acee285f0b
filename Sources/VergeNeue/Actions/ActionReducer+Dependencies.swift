import Verge

extension ActionReducer {
  /// This reducer with one dependency overridden: its reductions, the
  /// effects they start and the children it composes read `value` for
  /// `keyPath`; everything else is inherited from the store (or parent)
  /// that runs it.
  ///
  /// ```swift
  /// Inbox()
  ///   .forEach(\.rows, action: .row, element: Row().dependency(\.apiClient, .offline))
  /// ```
  ///
  /// Chain it to override several; the same modifier overrides what a
  /// scope with its own reducer reads (`store.scope(\.part, reducer:
  /// Part().dependency(\.clock, clock))`).
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's property of `DependencyValues`.
  ///   - value: The value this reducer reads.
  /// - Returns: The reducer with the dependency overridden.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> DependencyOverriding<Self> {
    DependencyOverriding(base: self) { $0[keyPath: keyPath] = value }
  }
}

/// A reducer with some dependencies overridden; see
/// `ActionReducer.dependency(_:_:)`.
public struct DependencyOverriding<Base: ActionReducer>: ActionReducer {
  /// The state type.
  public typealias State = Base.State
  /// The action type.
  public typealias Action = Base.Action
  /// The activity type.
  public typealias Activity = Base.Activity

  let base: Base
  let update: @Sendable (inout DependencyValues) -> Void

  /// Overrides one more dependency.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's property of `DependencyValues`.
  ///   - value: The value this reducer reads.
  /// - Returns: The reducer with both overrides.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> DependencyOverriding<Base> {
    let update = update
    return DependencyOverriding(base: base) {
      update(&$0)
      $0[keyPath: keyPath] = value
    }
  }

  /// Reduces with the base reducer, its dependencies overridden; its
  /// effects run with the same values.
  ///
  /// - Parameters:
  ///   - state: The state to change.
  ///   - action: What happened.
  /// - Returns: The base reducer's effects.
  public func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    var values = DependencyValues.current
    update(&values)
    let effect = DependencyValues.withValues(values) { base.reduce(into: &state, action: action) }
    return effect.runningWith(values)
  }
}
