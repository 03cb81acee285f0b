/// A method reducer: a type whose methods describe every change to a
/// state, each by name.
///
/// Methods return a `Mutation` (a synchronous, named change) or an
/// `Action<Result>` (async work that commits mutations, dispatches other
/// actions and may return a value or throw):
///
/// ```swift
/// final class RootReducer: ReducerType {
///   typealias TargetState = RootState
///   let api: PhotoAPI                           // dependencies live here
///   init(api: PhotoAPI) { self.api = api }
///
///   func syncIncrement(adding number: Int) -> Mutation {
///     .init { $0.count += number }
///   }
///   func fetchPhotos() -> Action<Int> {
///     .init { context in
///       let photos = try await self.api.photos()
///       context.commit { $0.setPhotos(photos) }
///       return photos.count
///     }
///   }
///   func setPhotos(_ photos: [Photo]) -> Mutation { .init { $0.photos = photos } }
/// }
///
/// let store = ReducerStore(initialState: RootState(), reducer: RootReducer(api: .live))
/// store.commit { $0.syncIncrement(adding: 1) }
/// let count = try await store.dispatch { $0.fetchPhotos() }
/// ```
///
/// The reducer is an instance, so tests build it with fakes
/// (`RootReducer(api: .fake)`). It must be `Sendable`: actions run on any
/// task. `TargetState` is its primary associated type
/// (`some ReducerType<RootState>`).
public protocol ReducerType<TargetState>: Sendable {
  /// The state this reducer changes.
  associatedtype TargetState: Equatable & Sendable
  /// The one-off events its actions may send; `Never` by default.
  associatedtype TargetActivity: Sendable = Never
}

extension ReducerType {
  /// A named, synchronous change of `TargetState`; see `ReducerMutation`.
  public typealias Mutation = ReducerMutation<TargetState>
  /// Async work of this reducer that returns a `Result`; see `ReducerAction`.
  public typealias Action<Result: Sendable> = ReducerAction<Self, Result>
}
