/// A type that reads and subscribes like a store: every store shape
/// (`Store`, VergeNeue's reducer stores and scoped stores) and every
/// `StoreComponentType` adopts it, and gets `state`, `version`,
/// `sinkState`, `sinkActivity`, `derived`, `changes`, `activities` and
/// `task` from this one place.
///
/// A conforming type names what it reads from, its `storeView`: a whole
/// core store, or one part of a core store's state (a scope). Everything
/// else is written once, in this protocol's extension.
///
/// ```swift
/// func render<S: ReadableStore>(_ store: S) -> StoreSubscription where S.State == Counter {
///   store.sinkState { changes in
///     changes.ifChanged(\.count) { count in print(count) }
///   }
/// }
/// ```
///
/// `Store` itself conforms: its own members are the primitives the
/// extension calls.
public protocol ReadableStore<State, Activity> {
  /// The state it reads: the whole state of a store, or a scope's part.
  associatedtype State: Equatable & Sendable
  /// The one-off events it delivers; `Never` when there are none.
  associatedtype Activity: Sendable

  /// What it reads from: a core store, or a part of one.
  var storeView: StoreView<State, Activity> { get }
}

extension ReadableStore {
  /// The current state (for a scope: its part of the root's state).
  ///
  /// Read through a whole store, a property read (`store.state.count`)
  /// inside `withObservationTracking` registers that property alone; see
  /// `Store.state`. A scope's state registers nothing.
  ///
  /// - Complexity: O(1): a short lock to take a copy-on-write snapshot.
  @inlinable
  public var state: StateSnapshot<State> {
    // A `return` of the store's state, not a `switch` expression: an
    // unoptimized build gives each arm's result and the expression's a
    // stack slot of its own (448 KiB for a 64 KiB state, where this takes
    // about 256 KiB).
    if case .store(let store) = storeView.source { return store.state }
    return fragmentState()
  }

  /// The state of a scope's part, for `state`.
  @inlinable
  func fragmentState() -> StateSnapshot<State> {
    guard case .fragment(let fragment) = storeView.source else { fatalError("not a fragment") }
    return StateSnapshot(fragment.value, observation: nil)
  }

  /// A number that grows with every change of the state; two equal
  /// readings mean the state did not change in between. A scope reads its
  /// root store's number.
  ///
  /// - Complexity: O(1), read without the lock.
  @inlinable
  public var version: UInt64 {
    switch storeView.source {
    case .store(let store): store.version
    case .fragment(let fragment): fragment.version
    }
  }

  /// The store's dependency values (see `Store.dependencies`); a scope's
  /// are its root's, with what the scope overrides.
  public var dependencies: DependencyValues {
    switch storeView.source {
    case .store(let store): store.dependencies
    case .fragment(let fragment): fragment.dependencies
    }
  }

  /// The async work owned by this store (for a scope: by the scope, which
  /// cancels it when it goes away).
  public var taskManager: TaskManager {
    switch storeView.source {
    case .store(let store): store.taskManager
    case .fragment(let fragment): fragment.taskManager
    }
  }

  /// Subscribes to the state: `receive` gets the current state at once
  /// (unless `dropsFirst`), then every change in commit order; a scope
  /// notifies only when its part changes. See `Store.sinkState` for the
  /// ordering and isolation rules.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current state.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each change; `previous` is `nil` on the first delivery.
  /// - Returns: The subscription's token; releasing it cancels.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<State>) -> Void
  ) -> StoreSubscription {
    switch storeView.source {
    case .store(let store):
      store.sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation, receive)
    case .fragment(let fragment):
      fragment.followed.sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation, receive)
    }
  }

  /// Subscribes to activities sent after this call; see
  /// `Store.sinkActivity`. A scope receives its root store's activities of
  /// its own `Activity` type.
  ///
  /// - Parameters:
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each activity.
  /// - Returns: The subscription's token; releasing it cancels.
  public func sinkActivity(
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Activity) -> Void
  ) -> StoreSubscription {
    switch storeView.source {
    case .store(let store):
      store.sinkActivity(queue: queue, isolation: isolation, receive)
    case .fragment(let fragment):
      fragment.sinkActivity(queue: queue, isolation: isolation, receive)
    }
  }

  /// A value derived from the state; see `Store.derived(_:)`.
  ///
  /// - Parameter pipeline: How to compute it.
  /// - Returns: The derived value; it does not keep the store alive.
  public func derived<Output>(_ pipeline: Pipeline<State, Output>) -> Derived<Output> {
    switch storeView.source {
    case .store(let store): store.derived(pipeline)
    case .fragment(let fragment): fragment.followed.derived(pipeline)
    }
  }

  /// The state's changes as an async sequence: the current state first,
  /// then each change (for a scope: of its part alone); see
  /// `ChangesSequence`.
  public var changes: ChangesSequence<State> {
    switch storeView.source {
    case .store(let store): store.changes
    case .fragment(let fragment): fragment.followed.changes
    }
  }

  /// Activities as an async sequence, from the moment this is called; see
  /// `Store.activities(bufferingPolicy:)`.
  ///
  /// - Parameter bufferingPolicy: What to keep when the consumer falls behind.
  /// - Returns: A stream that ends when the store goes away.
  public func activities(
    bufferingPolicy: AsyncStream<Activity>.Continuation.BufferingPolicy = .bufferingNewest(64)
  ) -> AsyncStream<Activity> {
    switch storeView.source {
    case .store(let store): store.activities(bufferingPolicy: bufferingPolicy)
    case .fragment(let fragment): fragment.activities(bufferingPolicy: bufferingPolicy)
    }
  }

  /// Starts async work owned by this store; see `TaskManager`.
  ///
  /// - Parameters:
  ///   - key: The line the task belongs to; unique by default.
  ///   - mode: What to do with the tasks already under `key`.
  ///   - priority: The task's priority.
  ///   - operation: The work, on the caller's actor as with `Task { }`;
  ///     cancelled when the store goes away.
  /// - Returns: The task, to await or cancel.
  @discardableResult
  public func task(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    @_inheritActorContext _ operation: @escaping @isolated(any) @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    taskManager.task(key: key, mode: mode, priority: priority, operation)
  }
}

extension ReadableStore {
  /// Starts async work owned by this store as a detached task, which
  /// inherits neither the caller's priority nor its task-local values;
  /// Verge's `taskDetached`. See `TaskManager.taskDetached(key:mode:priority:_:)`.
  ///
  /// - Parameters:
  ///   - key: The line the task belongs to; unique by default.
  ///   - mode: What to do with the tasks already under `key`.
  ///   - priority: The task's priority.
  ///   - operation: The work; cancelled when the store goes away.
  /// - Returns: The task, to await or cancel.
  @discardableResult
  public func taskDetached(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    taskManager.taskDetached(key: key, mode: mode, priority: priority, operation)
  }
}

extension Store: ReadableStore {
  /// The whole of this store.
  @inlinable
  public var storeView: StoreView<State, Activity> { StoreView(self) }
}
