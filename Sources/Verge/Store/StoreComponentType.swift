/// A type that owns a store — a view model, a feature object — and gains
/// the store's API on itself.
///
/// ```swift
/// final class CounterViewModel: StoreComponentType {
///   struct State: Equatable { var count: Int = 0 }
///   let store: Store<State, Never> = .init(initialState: .init())
///   func increment() { commit { $0.count += 1 } }
/// }
/// ```
///
/// A component is `Sendable`: the store's handlers and tasks may use it from
/// other threads. One whose stored properties are `let`s of `Sendable` types
/// (typically just `let store`) conforms as it is; one with mutable state is
/// `@MainActor` (a view model) or guards it.
public protocol StoreComponentType: Sendable {
  /// The state of the store.
  associatedtype State: Equatable & Sendable
  /// The store's one-off events; `Never` when there are none.
  associatedtype Activity: Sendable = Never

  /// The owned store.
  var store: Store<State, Activity> { get }
}

extension StoreComponentType {
  /// The store type a component declares, as in Verge:
  /// `let store: DefaultStore = .init(initialState: .init())`.
  public typealias DefaultStore = Store<State, Activity>

  /// The store's `version`; see `Store.version`.
  public var version: UInt64 { store.version }

  /// The store's current state; see `Store.state`.
  public var state: StateSnapshot<State> { store.state }

  /// Changes the store's state; see `Store.commit`.
  @discardableResult
  public func commit<Result, Failure: Error>(
    _ name: String = "",
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    _ body: (InoutRef<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try store.commit(name, file: file, function: function, line: line, body)
  }

  /// Sends an activity; see `Store.send`.
  public func send(_ activity: Activity) {
    store.send(activity)
  }

  /// Subscribes to the store's state; see `Store.sinkState`.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<State>) -> Void
  ) -> StoreSubscription {
    store.sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation, receive)
  }

  /// Subscribes to the store's activities; see `Store.sinkActivity`.
  public func sinkActivity(
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Activity) -> Void
  ) -> StoreSubscription {
    store.sinkActivity(queue: queue, isolation: isolation, receive)
  }

  /// A value derived from the store's state; see `Store.derived`.
  public func derived<Output>(_ pipeline: Pipeline<State, Output>) -> Derived<Output> {
    store.derived(pipeline)
  }

  /// Starts async work owned by the store; see `Store.task`.
  @discardableResult
  public func task(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    store.task(key: key, mode: mode, priority: priority, operation)
  }
}
