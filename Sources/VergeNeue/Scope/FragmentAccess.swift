import Verge

/// Reads and writes one part of a core store's state, holding the store
/// strongly. Engines work through it, so a root store and a scoped store
/// run the same code.
protocol FragmentAccess<Fragment>: Sendable {
  associatedtype Fragment: Equatable & Sendable

  func read() -> Fragment
  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result
  /// Commits a named mutation; a scope of a `ReducerStore` sends it through
  /// the root's pipeline instead of writing it in place.
  func commit(_ mutation: ReducerMutation<Fragment>)
  /// Reduces `action` with `engine`'s feature as one change named after it
  /// and returns the effect; a scope of a `ReducerStore` sends the change
  /// through the root's pipeline, which may drop or hold it (`nil` then).
  func reduce<Feature: ActionReducer>(
    _ action: Feature.Action, by engine: ActionEngine<Feature>, trace: @autoclosure () -> CommitTrace
  ) -> Effect<Feature.Action, Feature.Activity>? where Feature.State == Fragment
}

extension FragmentAccess {
  /// The observed commit of both reducer styles: writes through `body`,
  /// then hands `observe` the fragment before and after the write, for the
  /// time of the call (an event observer, a middleware's terminal).
  ///
  /// This code runs unspecialized (the engines are generic and reached from
  /// other modules), where every state-sized temporary takes a slot of its
  /// own on the stack. So both states are kept on the heap, never in this
  /// frame: a 64 KiB state must fit a 512 KiB thread.
  ///
  /// - Returns: What `body` returned.
  func observedWrite<Result>(
    _ trace: @autoclosure () -> CommitTrace,
    _ body: (inout Fragment) -> Result,
    observe: (_ before: UnsafePointer<Fragment>, _ after: UnsafePointer<Fragment>) -> Void
  ) -> Result {
    // `states[0]` is the state before, `states[1]` the state after.
    let states = UnsafeMutablePointer<Fragment>.allocate(capacity: 2)
    defer {
      states.deinitialize(count: 2)
      states.deallocate()
    }
    let result = write(trace()) { state in
      states.initialize(from: &state, count: 1)
      let result = body(&state)
      (states + 1).initialize(from: &state, count: 1)
      return result
    }
    observe(states, states + 1)
    return result
  }

  func commit(_ mutation: ReducerMutation<Fragment>) {
    write(mutation.trace) { mutation.body(&$0) }
  }

  func reduce<Feature: ActionReducer>(
    _ action: Feature.Action, by engine: ActionEngine<Feature>, trace: @autoclosure () -> CommitTrace
  ) -> Effect<Feature.Action, Feature.Activity>? where Feature.State == Fragment {
    let feature = engine.feature
    return write(trace()) { feature.reduce(into: &$0, action: action) }
  }
}

/// The whole state of a store.
struct StoreAccess<State: Equatable & Sendable, Activity: Sendable>: FragmentAccess {
  let store: Store<State, Activity>

  func read() -> State { store.untrackedState }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout State) -> Result) -> Result {
    // Runs unspecialized (through `any FragmentAccess`): the out-of-line
    // commit keeps a large state's small-path temporaries off this stack.
    store.commitOutOfLine(trace: trace()) { ref in
      ref.modify { body(&$0) }
    }.result
  }
}

/// A root store as its scopes reach it, whatever its state type.
protocol ScopeRoot: Sendable {
  var version: UInt64 { get }
  /// The root store's dependency values, which its scopes inherit.
  var dependencies: DependencyValues { get }
  /// Runs an action's announcement through the root's pipeline and waits
  /// until it lets the action on; `nil` when the root has no pipeline.
  var announce: (@Sendable (ActionInfo) async throws -> Void)? { get }
  /// Sends `activity` to the root's activity subscribers when it is of the
  /// root's activity type; returns `false` when it is not.
  func sendActivity(_ activity: any Sendable) -> Bool
  /// Whether the root's activities are of type `A`.
  func accepts<A>(_ type: A.Type) -> Bool
  func sinkActivity<A: Sendable>(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (A) -> Void
  ) -> StoreSubscription
  /// The root's activities when they are of type `A`; otherwise a stream
  /// that has ended.
  func activities<A: Sendable>(bufferingPolicy: AsyncStream<A>.Continuation.BufferingPolicy) -> AsyncStream<A>
}

/// The read side of a scope: one part of a root store's state.
protocol ScopeSource<Fragment>: Sendable {
  associatedtype Fragment: Equatable & Sendable
  var root: any ScopeRoot { get }
  func read() -> Fragment
  /// The part as a derived value of the root store.
  func derived() -> Derived<Fragment>
  /// A part of this part, read through `get`.
  func focus<Child: Equatable & Sendable>(_ get: @escaping @Sendable (Fragment) -> Child) -> any ScopeSource<Child>
}

/// A scope's part that its reducer also writes: through the root's
/// pipeline when the root is a `ReducerStore`, in place otherwise.
protocol ScopeAnchor<Fragment>: FragmentAccess, ScopeSource {
  /// The anchor of a part of this fragment, into the same root.
  func appending<Child: Equatable & Sendable>(_ field: StateField<Fragment, Child>) -> any ScopeAnchor<Child>
}

/// A root store with what its scopes need: the object that wraps it (kept
/// alive by every scope) and, for a `ReducerStore`, its pipeline.
struct RootStore<Root: Equatable & Sendable, Activity: Sendable>: ScopeRoot {
  let store: Store<Root, Activity>
  /// The store wrapping `store` that scopes are cut from, kept alive by
  /// them; `nil` for a core store.
  let owner: (any AnyObject & Sendable)?
  /// Commits a mutation of the root state through the root's pipeline;
  /// `nil` when the root has none (a core store).
  let pipeline: (@Sendable (ReducerMutation<Root>) -> Void)?
  let announce: (@Sendable (ActionInfo) async throws -> Void)?

  init(
    store: Store<Root, Activity>,
    owner: (any AnyObject & Sendable)?,
    pipeline: (@Sendable (ReducerMutation<Root>) -> Void)? = nil,
    announce: (@Sendable (ActionInfo) async throws -> Void)? = nil
  ) {
    self.store = store
    self.owner = owner
    self.pipeline = pipeline
    self.announce = announce
  }

  var version: UInt64 { store.version }

  var dependencies: DependencyValues { store.dependencies }

  func sendActivity(_ activity: any Sendable) -> Bool {
    guard let typed = activity as? Activity else { return false }
    store.send(typed)
    return true
  }

  func accepts<A>(_ type: A.Type) -> Bool { A.self == Activity.self }

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

/// A part of a root store's state read through a function.
struct RootFocus<Root: Equatable & Sendable, Activity: Sendable, Fragment: Equatable & Sendable>: ScopeSource {
  let rootStore: RootStore<Root, Activity>
  let get: @Sendable (Root) -> Fragment
  /// As `KeyPathAccess.follow`.
  let follow: (@Sendable () -> Derived<Fragment>)?

  init(
    rootStore: RootStore<Root, Activity>, follow: (@Sendable () -> Derived<Fragment>)? = nil,
    get: @escaping @Sendable (Root) -> Fragment
  ) {
    self.rootStore = rootStore
    self.get = get
    self.follow = follow
  }

  var root: any ScopeRoot { rootStore }

  func read() -> Fragment { get(rootStore.store.untrackedState) }

  func derived() -> Derived<Fragment> { follow?() ?? rootStore.store.derived(.map(get)) }

  func focus<Child: Equatable & Sendable>(_ child: @escaping @Sendable (Fragment) -> Child) -> any ScopeSource<Child> {
    RootFocus<Root, Activity, Child>(rootStore: rootStore) { [get] in child(get($0)) }
  }
}

/// A part of a root store's state at a writable key path, reached through
/// its `StateField`.
struct KeyPathAccess<Root: Equatable & Sendable, Activity: Sendable, Fragment: Equatable & Sendable>: ScopeAnchor {
  let rootStore: RootStore<Root, Activity>
  let field: StateField<Root, Fragment>
  /// Makes the derived value that follows the part, when the scope was
  /// made where the types are known (an `@inlinable` `scope`): the derived
  /// value's updates and deliveries are then specialized there, rather
  /// than run as generic code that looks its types up on every commit.
  let follow: (@Sendable () -> Derived<Fragment>)?

  init(
    rootStore: RootStore<Root, Activity>, field: StateField<Root, Fragment>,
    follow: (@Sendable () -> Derived<Fragment>)? = nil
  ) {
    self.rootStore = rootStore
    self.field = field
    self.follow = follow
  }

  var root: any ScopeRoot { rootStore }

  func read() -> Fragment { field.read(rootStore.store.untrackedState) }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result {
    rootStore.store.countedCommit(trace: trace()) { ref in
      ref.modify { field.modify(&$0, body) }
    }.result
  }

  func commit(_ mutation: ReducerMutation<Fragment>) {
    guard let pipeline = rootStore.pipeline else {
      return write(mutation.trace) { mutation.body(&$0) }
    }
    let field = field
    pipeline(
      ReducerMutation(mutation.givenName, file: mutation.file, function: mutation.function, line: mutation.line) {
        field.modify(&$0, mutation.body)
      })
  }

  func reduce<Feature: ActionReducer>(
    _ action: Feature.Action, by engine: ActionEngine<Feature>, trace: @autoclosure () -> CommitTrace
  ) -> Effect<Feature.Action, Feature.Activity>? where Feature.State == Fragment {
    let feature = engine.feature
    guard let pipeline = rootStore.pipeline else {
      return write(trace()) { feature.reduce(into: &$0, action: action) }
    }
    let (field, trace) = (field, trace())
    let handoff = ReductionHandoff<Effect<Feature.Action, Feature.Activity>>()
    pipeline(
      ReducerMutation(trace.name, file: trace.file, function: trace.function, line: trace.line) { [weak engine] root in
        let effect = field.modify(&root) { feature.reduce(into: &$0, action: action) }
        // Held by a middleware and run after `reduce` returned: start the
        // effects once this commit is over (here, the root is locked).
        if handoff.deliver(effect) { Task { engine?.startLate(effect, origin: action) } }
      })
    return handoff.collect()
  }

  func derived() -> Derived<Fragment> {
    if let follow { return follow() }
    let field = field
    return rootStore.store.derived(.map { field.read($0) })
  }

  func focus<Child: Equatable & Sendable>(_ get: @escaping @Sendable (Fragment) -> Child) -> any ScopeSource<Child> {
    let field = field
    return RootFocus<Root, Activity, Child>(rootStore: rootStore) { get(field.read($0)) }
  }

  func appending<Child: Equatable & Sendable>(_ child: StateField<Fragment, Child>) -> any ScopeAnchor<Child> {
    KeyPathAccess<Root, Activity, Child>(rootStore: rootStore, field: field.appending(child))
  }
}
