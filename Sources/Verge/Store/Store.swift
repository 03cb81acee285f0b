import Dispatch

/// A thread-safe reference that holds one state value: the single source of
/// truth for a feature or an app.
///
/// ```swift
/// struct Counter: Equatable { var count = 0 }
///
/// let store = Store<Counter, Never>(initialState: Counter())
/// store.commit { $0.count += 1 }
/// store.sinkState { changes in
///   changes.ifChanged(\.count) { count in print(count) }
/// }
/// .storeWhileSourceActive()
/// ```
///
/// - `commit` is the one way to change the state: synchronous, serialized,
///   in place.
/// - `state` reads the current state, and registers what it reads with Swift
///   Observation.
/// - `sinkState`, `derived` and the async sequences deliver changes in commit
///   order, from any thread.
/// - `send` and `sinkActivity` carry one-off events (`Activity`) that are not
///   state; use `Never` when there are none.
/// - `task` runs async work that is cancelled when the store goes away.
///
/// A store never keeps itself alive through its subscribers or tasks; when
/// it is released, its subscriptions end and its tasks are cancelled.
public final class Store<State: Equatable & Sendable, Activity: Sendable>: Sendable {
  @usableFromInline let core: StateCore<State, Activity>
  @usableFromInline let observation: StateObservation<State>

  /// The store's async work, keyed and cancellable; see `task(key:mode:priority:_:)`.
  public let taskManager = TaskManager()

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - middlewares: Hooks that see (and may adjust) every commit, in order.
  ///   - withDependencies: Overrides some of the dependency values the store
  ///     takes from where it is made (`DependencyValues.current`); see
  ///     `dependencies`.
  ///
  /// When `State` adopts ``StateType``, its `reduce(modifying:current:)`
  /// runs on `initialState` first, and then inside every commit, before
  /// `middlewares`.
  @inlinable
  public init(
    initialState: State,
    middlewares: [CommitMiddleware<State>] = [],
    withDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    var dependencies = DependencyValues.current
    withDependencies(&dependencies)
    // The state goes to the heap at once and from there into the core,
    // in frames that reserve no stack for it: a specialized `init` would
    // reserve a stack slot for each copy on each path (192 KiB for a
    // 64 KiB state), too much for a 512 KiB thread.
    let handover = UnsafeMutablePointer<State>.allocate(capacity: 1)
    handover.initialize(to: initialState)
    let core = Self.makeCore(
      movingFrom: handover, isEqual: { $0 == $1 }, middlewares: middlewares, dependencies: dependencies)
    self.core = core
    observation = StateObservation { [weak core] receive in
      core?.subscribe(.values(receive), dropsFirst: true, queue: .committingThread)
    }
  }

  /// The store's core, holding the state moved out of `handover` (which is
  /// freed), reduced first when `State` adopts `StateType`. Not specialized,
  /// so that the path not taken reserves no stack.
  @usableFromInline @inline(never)
  static func makeCore(
    movingFrom handover: UnsafeMutablePointer<State>, isEqual: @escaping @Sendable (State, State) -> Bool,
    middlewares: [CommitMiddleware<State>], dependencies: DependencyValues
  ) -> StateCore<State, Activity> {
    defer { handover.deallocate() }
    guard let reduce = stateTypeReduceMiddleware(for: State.self) else {
      return StateCore(movingFrom: handover, isEqual: isEqual, middlewares: middlewares, dependencies: dependencies)
    }
    // The reduce hook runs on the initial state first, as if it had just
    // been committed.
    reduceInitialState(&handover.pointee)
    return StateCore(
      movingFrom: handover, isEqual: isEqual, middlewares: [reduce] + middlewares, dependencies: dependencies)
  }

  /// The store's dependency values: those in effect where it was made, with
  /// what its `withDependencies:` argument changed.
  ///
  /// A view model reads its services here
  /// (`store.dependencies.apiClient`); its commit closures, and the
  /// reducers of stores built on it, read the same values through
  /// `@Dependency`.
  public var dependencies: DependencyValues {
    core.dependencies.unsafelyUnwrapped
  }

  /// The current state.
  ///
  /// Reading a property through it (`store.state.count`) inside
  /// `withObservationTracking` (or a SwiftUI body) registers that property
  /// alone; `store.state.current` reads, and registers, the whole state.
  ///
  /// - Complexity: O(1): a short lock to take a copy-on-write snapshot.
  ///   Hold on to the snapshot only briefly: while you do, the next commit
  ///   copies the collections it touches.
  @inlinable
  public var state: StateSnapshot<State> {
    StateSnapshot(core.value, observation: observation)
  }

  /// A number that grows with every change of the state; two equal readings
  /// mean the state did not change in between.
  ///
  /// `Changes.version` carries the same number for the state it delivers,
  /// so a subscriber can tell whether it has already seen a state.
  ///
  /// - Complexity: O(1), read without the lock.
  @inlinable
  public var version: UInt64 {
    core.changeCounter.current
  }

  /// The current state, read without registering anything with Swift
  /// Observation; for libraries built on Verge (their own reads must not
  /// invalidate, or slow down, the app's observers).
  @inlinable
  package var untrackedState: State {
    core.value
  }

  /// Initializes `place` with a copy of the state, as `untrackedState`
  /// reads it, made in place under the lock and in a frame of its own: no
  /// frame holds a copy of it (VergeNeue's middleware pipeline reads a
  /// large state this way, so that a 64 KiB state fits a 512 KiB thread).
  ///
  /// - Parameter place: Uninitialized memory for one state.
  @usableFromInline
  package func copyState(to place: UnsafeMutablePointer<State>) {
    core.copyValue(to: place)
  }

  /// Changes the state: the one way to do it.
  ///
  /// The closure receives the state in place; assign through it:
  ///
  /// ```swift
  /// store.commit { $0.count += 1 }
  /// store.commit("rename") { $0.user.name = name }
  /// let id = store.commit { $0.nextID() }          // results are returned
  /// try store.commit { try $0.validate() }         // may throw
  /// ```
  ///
  /// Commits are serialized: one runs at a time, on the calling thread. When
  /// the closure throws, the state stays exactly as it was, no one is
  /// notified and the error is rethrown. When the closure writes nothing,
  /// no one is notified. When it writes, subscribers are notified even if it
  /// assigned equal values, as in Verge: whether a part changed is decided
  /// where it is asked (`ifChanged`, derived values, observation), never by
  /// comparing whole states, which would cost O(size of the state).
  ///
  /// Subscribers called on the committing thread have all been called when
  /// `commit` returns, except for a commit made from inside a subscriber:
  /// its deliveries run right after the current delivery returns; and for a
  /// commit made from inside another store's commit closure: its deliveries
  /// run once the outermost closure has ended.
  ///
  /// Calling `commit`, `state`, `send` or `sinkState` of the same store from
  /// inside the closure is a programming error that would deadlock; it traps
  /// with a message saying so. Other stores may be used there (see the
  /// Concurrency article for the one rule about nesting).
  ///
  /// - Parameters:
  ///   - name: A name for logs and middlewares; optional.
  ///   - file: The calling file, for logs.
  ///   - function: The calling function, for logs.
  ///   - line: The calling line, for logs.
  ///   - body: Mutates the state through the `InoutRef` it receives.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw, after leaving the state untouched.
  /// - Complexity: The closure's own cost when nothing keeps the previous
  ///   state; otherwise it also copies the collections it touches. A closure
  ///   that can throw always works on a copy, so it copies what it touches.
  @inlinable @inline(__always) @discardableResult
  public func commit<Result, Failure: Error>(
    _ name: String = "",
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    _ body: (InoutRef<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var countAfter: UInt64 = 0
    return try core.commit(
      trace: CommitTrace(name: name, file: file, function: function, line: line), countAfter: &countAfter, body)
  }

  // MARK: - For inlinable code of VergeNeue and VergeORM
  //
  // `package`: visible to the targets of this package, never to users.

  /// What counts this store's changes (`version`), as an object that can
  /// be held and read without knowing the store's types.
  @usableFromInline
  package var changeCounter: ChangeCounter {
    core.changeCounter
  }

  /// The current state and the `version` it belongs to, read together
  /// under the lock and without registering anything with Swift
  /// Observation.
  ///
  /// - Returns: The state and its change count.
  @inlinable
  package func countedState() -> (state: State, changeCount: UInt64) {
    core.countedValue()
  }

  /// Commits like `commit(_:file:function:line:_:)`, with a trace formed
  /// only if a commit middleware asks for it (VergeNeue names a commit
  /// after its action, which is costly to format), and also returns the
  /// `version` as it stood right after this commit.
  ///
  /// - Parameters:
  ///   - trace: Describes the commit to commit middlewares.
  ///   - body: Mutates the state through the `InoutRef` it receives.
  /// - Returns: What `body` returned, and the change count after the commit.
  /// - Throws: What `body` threw, after leaving the state untouched.
  @inlinable @inline(__always)
  package func countedCommit<Result, Failure: Error>(
    trace: @autoclosure () -> CommitTrace,
    _ body: (InoutRef<State>) throws(Failure) -> Result
  ) throws(Failure) -> (result: Result, changeCount: UInt64) {
    var count: UInt64 = 0
    let result = try core.commit(trace: trace(), countAfter: &count, body)
    return (result, count)
  }

  /// `countedCommit(trace:_:)` for code that runs unspecialized (VergeNeue's
  /// engines reach the store through the witness of a generic type;
  /// persistence restores from code generic over the state): a large state
  /// then costs no stack for the temporaries of the small path, which would
  /// otherwise be reserved there at the state's size each (a 64 KiB state
  /// must fit a 512 KiB thread).
  ///
  /// - Parameters:
  ///   - trace: Describes the commit to commit middlewares.
  ///   - body: Mutates the state through the `InoutRef` it receives.
  /// - Returns: What `body` returned, and the change count after the commit.
  package func commitOutOfLine<Result>(
    trace: @autoclosure () -> CommitTrace,
    _ body: (InoutRef<State>) -> Result
  ) -> (result: Result, changeCount: UInt64) {
    var count: UInt64 = 0
    // A large state goes straight to `commitLarge`, a small one through a
    // frame of its own.
    let result =
      StateCore<State, Activity>.isLarge
      ? core.commitLarge(trace: trace, countAfter: &count, body)
      : core.commitSmallOutOfLine(trace: trace, countAfter: &count, body)
    return (result, count)
  }

  /// Adds a commit middleware after the ones the store was made with; it
  /// sees every commit from the next one on.
  ///
  /// ```swift
  /// store.add(middleware: .modify { modifying, _, current in
  ///   current.ifChanged(\.count).do { _ in modifying.lastEdit = .now }
  /// })
  /// ```
  ///
  /// - Parameter middleware: The hook to run after the existing ones.
  /// - Complexity: While any middleware is installed, the store keeps the
  ///   previous state for each commit, so a commit copies the collections
  ///   it touches.
  public func add(middleware: CommitMiddleware<State>) {
    core.add(middleware: middleware)
  }

  /// Sends a one-off event to the activity subscribers.
  ///
  /// Delivery follows the same rules as state changes, in one order with
  /// them: a subscriber of both sees a commit and then an activity sent after
  /// it in that order.
  ///
  /// - Parameter activity: The event.
  @inlinable
  public func send(_ activity: Activity) {
    core.send(activity)
  }

  /// Subscribes to the state: `receive` gets the current state at once (unless
  /// `dropsFirst`), then every change in commit order.
  ///
  /// ```swift
  /// store.sinkState { changes in
  ///   changes.ifChanged(\.count) { count in label.text = "\(count)" }
  /// }
  /// .storeWhileSourceActive()
  /// ```
  ///
  /// From nonisolated code, `receive` is called synchronously on the
  /// committing thread by default, before `commit` returns; one delivery at
  /// a time, never concurrently with itself, never an older state after a
  /// newer one — also when commits race on many threads and when `receive`
  /// itself commits (that commit's delivery follows once `receive` returns).
  ///
  /// From main-actor code (a view controller, a SwiftUI model), `receive` is
  /// isolated to the main actor and may touch main-actor state directly: it
  /// runs at once when the commit happens on the main actor (the main
  /// thread, or on Linux the thread that runs the main queue after
  /// `dispatchMain()`, as in Swift Testing), otherwise on the main queue, in
  /// commit order. From another actor's code it runs on that actor, in
  /// commit order. `queue` applies to nonisolated code only; see the
  /// Concurrency article.
  ///
  /// ```swift
  /// @MainActor final class CounterViewController {
  ///   let label = Label()
  ///   var subscriptions = Set<VergeAnyCancellable>()
  ///   func viewDidLoad() {
  ///     store.sinkState { [weak self] changes in
  ///       changes.ifChanged(\.count) { self?.label.text = "\($0)" }
  ///     }
  ///     .store(in: &subscriptions)
  ///   }
  /// }
  /// ```
  ///
  /// A handler that captures the store strongly makes a reference cycle
  /// only if the store keeps the subscription (`storeWhileSourceActive()`):
  /// capture it weakly there.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current state.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each change; `previous` is `nil` on the first delivery.
  /// - Returns: The subscription's token; releasing it cancels.
  /// - Complexity: While subscribed, the store keeps the previous state for
  ///   each commit, so a commit copies the collections it touches.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<State>) -> Void
  ) -> StoreSubscription {
    IsolatedReceiver.subscribe(receive, isolation: isolation) { deliver in
      core.subscribe(.changes(deliver), dropsFirst: dropsFirst, queue: queue)
    }
  }

  /// Subscribes to activities sent after this call.
  ///
  /// Isolation works as for `sinkState`: from main-actor code `receive`
  /// runs on the main actor, in order.
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
    IsolatedReceiver.subscribe(receive, isolation: isolation) { deliver in
      core.subscribe(.activity(deliver), dropsFirst: true, queue: queue)
    }
  }
}
