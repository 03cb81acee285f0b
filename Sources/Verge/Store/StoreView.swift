/// What a `ReadableStore` reads from: a whole core store, or one part of a
/// core store's state (a scope's view onto its root).
public struct StoreView<State: Equatable & Sendable, Activity: Sendable>: Sendable {
  @usableFromInline
  package enum Source: Sendable {
    case store(Store<State, Activity>)
    case fragment(any StoreFragment<State, Activity>)
  }

  @usableFromInline package let source: Source

  /// A view of the whole of `store`.
  ///
  /// - Parameter store: The store.
  @inlinable
  public init(_ store: Store<State, Activity>) {
    source = .store(store)
  }

  /// A view of a part of a root store, as a scope makes it.
  package init(fragment: any StoreFragment<State, Activity>) {
    source = .fragment(fragment)
  }
}

/// One part of a root store's state, as a scope reads it: libraries built
/// on Verge implement it (VergeNeue's scoped stores).
///
/// Its one conformer lives in VergeNeue, which Verge cannot name: this is
/// the seam between the two modules. Closures instead would cost each
/// scope one allocation per requirement.
@usableFromInline
package protocol StoreFragment<State, Activity>: Sendable {
  associatedtype State: Equatable & Sendable
  associatedtype Activity: Sendable

  /// The part's current value, read without registering anything.
  var value: State { get }
  /// The root store's version.
  var version: UInt64 { get }
  /// The part as a derived value of the root, made on first use and shared.
  var followed: Derived<State> { get }
  /// The scope's own async work.
  var taskManager: TaskManager { get }
  /// The dependency values of the fragment's store (see
  /// `ReadableStore.dependencies`).
  var dependencies: DependencyValues { get }
  /// Subscribes to the root's activities of this `Activity` type.
  func sinkActivity(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (Activity) -> Void
  ) -> StoreSubscription
  /// The root's activities of this `Activity` type as an async sequence.
  func activities(bufferingPolicy: AsyncStream<Activity>.Continuation.BufferingPolicy) -> AsyncStream<Activity>
}
