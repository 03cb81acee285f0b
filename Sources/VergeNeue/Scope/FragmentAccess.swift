@_spi(Internal) import Verge
/// Reads and writes one part of a core store's state, holding the store
/// strongly. Engines work through it, so a root store and a scoped store
/// run the same code.
protocol FragmentAccess<Fragment>: Sendable {
  associatedtype Fragment: Equatable & Sendable

  func read() -> Fragment
  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result
  func derived() -> Derived<Fragment>
}

/// The whole state of a store.
struct StoreAccess<State: Equatable & Sendable, Activity: Sendable>: FragmentAccess {
  let store: Store<State, Activity>

  func read() -> State { store.untrackedState }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout State) -> Result) -> Result {
    store.commit(trace: trace()) { ref in
      ref.modify { body(&$0) }
    }
  }

  func derived() -> Derived<State> {
    store.derived(.map { $0 })
  }
}

/// Where a scoped store's fragment lives: an access that can also forward
/// activities to the root store and reach further in.
protocol ScopeAnchor<Fragment>: FragmentAccess {
  /// Sends `activity` to the root store's activity subscribers when it is of
  /// the root store's activity type; returns `false` when it is not.
  func sendActivity(_ activity: any Sendable) -> Bool
  /// The name of the root store's activity type, for error messages.
  var activityTypeName: String { get }
  /// The root store's version.
  var version: UInt64 { get }
  /// Subscribes to the root store's activities of type `A`.
  func sinkActivity<A: Sendable>(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (A) -> Void
  ) -> StoreSubscription
  /// The root store's activities as a stream when they are of type `A`;
  /// otherwise a stream that has ended.
  func activities<A: Sendable>(bufferingPolicy: AsyncStream<A>.Continuation.BufferingPolicy) -> AsyncStream<A>
  /// The anchor of a part of this fragment, into the same root.
  func appending<Child: Equatable & Sendable>(_ keyPath: SendableWritableKeyPath<Fragment, Child>) -> any ScopeAnchor<Child>
}

/// A part of a store's state at a key path. It holds the root store, and
/// the object the scope was cut from (a `ReducerStore` or an `ActionStore`
/// around it), strongly: a scoped store keeps its root alive.
struct KeyPathAccess<Root: Equatable & Sendable, Activity: Sendable, Fragment: Equatable & Sendable>: ScopeAnchor {
  let store: Store<Root, Activity>
  /// The store wrapping `store` that the scope was cut from, kept alive
  /// with it; `nil` when cut from the core store itself.
  let owner: (any AnyObject & Sendable)?
  let keyPath: SendableWritableKeyPath<Root, Fragment>

  func read() -> Fragment { store.untrackedState[keyPath: keyPath.value] }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result {
    store.commit(trace: trace()) { ref in
      ref.modify { body(&$0[keyPath: keyPath.value]) }
    }
  }

  func derived() -> Derived<Fragment> {
    let keyPath = keyPath
    return store.derived(.map { $0[keyPath: keyPath.value] })
  }

  func appending<Child: Equatable & Sendable>(_ child: SendableWritableKeyPath<Fragment, Child>) -> any ScopeAnchor<Child> {
    KeyPathAccess<Root, Activity, Child>(store: store, owner: owner, keyPath: keyPath.appending(child))
  }

  func sendActivity(_ activity: any Sendable) -> Bool {
    guard let typed = activity as? Activity else { return false }
    store.send(typed)
    return true
  }

  var activityTypeName: String { "\(Activity.self)" }

  var version: UInt64 { store.version }

  func sinkActivity<A: Sendable>(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (A) -> Void
  ) -> StoreSubscription {
    store.sinkActivity(queue: queue, isolation: isolation) { activity in
      if let typed = activity as? A { receive(typed) }
    }
  }

  func activities<A: Sendable>(bufferingPolicy: AsyncStream<A>.Continuation.BufferingPolicy) -> AsyncStream<A> {
    if let same = store.activities(bufferingPolicy: .unbounded) as? AsyncStream<A> { return same }
    return AsyncStream { $0.finish() }
  }
}

extension Store {
  /// The anchor of a scoped store cut from this store at `keyPath`.
  ///
  /// - Parameter owner: The store wrapping this one that the scope was cut
  ///   from, to keep alive with it.
  func anchor<Fragment>(
    _ keyPath: WritableKeyPath<State, Fragment> & Sendable, owner: (any AnyObject & Sendable)? = nil
  ) -> KeyPathAccess<State, Activity, Fragment> {
    KeyPathAccess(store: self, owner: owner, keyPath: SendableWritableKeyPath(keyPath))
  }
}
