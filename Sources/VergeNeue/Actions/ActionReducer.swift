/// A Redux-style reducer: an action enum and one function that changes the
/// state for an action and returns the effects to run.
///
/// ```swift
/// struct CounterFeature: ActionReducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Sendable { case increment, decrement, incrementLater }
///
///   let clock: any Clock<Duration>              // dependencies live here
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
///     switch action {
///     case .increment: state.count += 1; return .none
///     case .decrement: state.count -= 1; return .none
///     case .incrementLater:
///       return .run { send in
///         try await clock.sleep(for: .seconds(1))
///         send(.increment)
///       }
///       .cancellable(id: "later", cancelInFlight: true)
///     }
///   }
/// }
/// ```
///
/// `reduce` must be synchronous and quick, and touch nothing but `state`;
/// async work belongs in the returned `Effect`.
///
/// `State` and `Action` are its primary associated types, so a function can
/// return a feature without naming its concrete type:
///
/// ```swift
/// func counter() -> some ActionReducer<CounterFeature.State, CounterFeature.Action> {
///   CounterFeature(clock: ContinuousClock())
/// }
/// ```
public protocol ActionReducer<State, Action>: Sendable {
  /// The state this reducer changes.
  associatedtype State: Equatable & Sendable
  /// The actions it handles.
  associatedtype Action: Sendable
  /// The one-off events its effects may send to the store's
  /// `sinkActivity` subscribers (`Effect.activity(_:)`,
  /// `send(activity:)`); `Never` by default. Effects carry it in their
  /// type, so an activity of another type does not compile.
  associatedtype Activity: Sendable = Never

  /// Changes `state` for `action`.
  ///
  /// - Parameters:
  ///   - state: The state, in place.
  ///   - action: What happened.
  /// - Returns: The async work to start, `.none` for none.
  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity>
}
