import Verge
import Synchronization

/// A store driven by enum actions and an `ActionReducer` (the Redux shape),
/// built on a core `Store`.
///
/// ```swift
/// let store = ActionStore(initialState: CounterFeature.State(), reducer: CounterFeature())
/// store.send(.increment)
/// await store.send(.incrementLater).finish()
/// store.sinkState { changes in
///   changes.ifChanged(\.count) { count in render(count) }
/// }
/// .storeWhileSourceActive()
/// ```
///
/// **Re-entrancy rule.** Actions are reduced one at a time, in the order
/// they were sent. An action sent while another is being reduced — from a
/// subscriber, a middleware, an effect or another thread — is queued and
/// reduced after it, in order; nothing is dropped and nothing deadlocks.
/// Consequently `send` from the only thread at work has reduced its action
/// when it returns; when another thread (or an enclosing reduction on this
/// one) is reducing, `send` returns at once and that thread reduces the
/// action in turn. `await store.send(action).finish()` always waits for it.
///
/// `state`, `sinkState`, `derived`, `changes` and `task` behave exactly as
/// on the core store, which is `core`.
public final class ActionStore<Feature: ActionReducer>: ReadableStore, Sendable {
  /// The state type.
  public typealias State = Feature.State
  /// The action type.
  public typealias Action = Feature.Action
  /// The activity type: one-off events effects send.
  public typealias Activity = Feature.Activity

  /// The whole of `core`: reads, subscriptions, `derived` and `task` come
  /// from `ReadableStore`, exactly as on the core store.
  @inlinable
  public var storeView: StoreView<State, Activity> { StoreView(core) }

  /// The core store that holds the state and delivers activities.
  public let core: Store<State, Activity>
  @usableFromInline let engine: ActionEngine<Feature>
  /// Whether the core store has commit middlewares, which see each
  /// action's trace; fixed at creation.
  @usableFromInline let hasCommitMiddlewares: Bool

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - reducer: The reducer.
  ///   - withDependencies: Overrides some of the dependency values the store
  ///     takes from where it is made; its reducer, its effects and its
  ///     scopes read them (see `DependencyValues`).
  ///   - middlewares: The pipeline around every action, in order.
  ///   - commitMiddlewares: Hooks of the core store.
  ///   - onEffectError: Gets each error an effect throws and does not catch
  ///     (never a `CancellationError`), on the effect's task. By default
  ///     `EffectFailure.log(_:)` writes it to standard error, in debug and
  ///     release builds alike.
  public init(
    initialState: State,
    reducer: Feature,
    withDependencies: (inout DependencyValues) -> Void = { _ in },
    middlewares: [Middleware<Action, State>] = [],
    commitMiddlewares: [CommitMiddleware<State>] = [],
    onEffectError: @escaping @Sendable (EffectFailure<Action>) -> Void = EffectFailure.log
  ) {
    let core = Store<State, Activity>(
      initialState: initialState, middlewares: commitMiddlewares, withDependencies: withDependencies)
    self.core = core
    hasCommitMiddlewares = !commitMiddlewares.isEmpty
    engine = ActionEngine(
      feature: reducer, access: StoreAccess(store: core), middlewares: middlewares,
      activitySink: { [weak core] activity in core?.send(activity) }, onEffectError: onEffectError,
      dependencies: core.dependencies)
  }

  /// The reducer.
  public var reducer: Feature { engine.feature }

  /// Sends an action: through the middlewares to the reducer, then starts
  /// the effects it returns. See the re-entrancy rule on `ActionStore`.
  ///
  /// - Parameter action: What happened.
  /// - Returns: A handle to wait for the reduction and the effects it
  ///   started, or to cancel those effects.
  /// - Complexity: Without event observers or commit middlewares, and with
  ///   no other thread reducing, the reducer's and the middlewares' own
  ///   cost plus a core commit and one short read of the state (read again
  ///   between middlewares only when something else changed it): the
  ///   action is reduced on the calling thread with no lock of this store's
  ///   and no allocation, unless it returns an effect or a middleware keeps
  ///   its step.
  @inlinable @discardableResult
  public func send(_ action: Action) -> StoreTask {
    // Specialized in the caller's module. No commit middleware reads the
    // trace, so the action is not described.
    guard engine.observers.count.load(ordering: .relaxed) == 0 && engine.lifecycle.count.load(ordering: .relaxed) == 0
      && !hasCommitMiddlewares && engine.beginDirect()
    else {
      if engine.hasMiddlewares { formPipeline() }
      // Through the queue, the middlewares and the observers.
      return engine.send(action, cause: .send)
    }
    let task = engine.hasMiddlewares ? passThroughMiddlewares(action) : reduceDirectly(action)
    engine.endDirect()
    return task
  }

  /// Reduces `action` in place through the engine's one reduce path,
  /// committed straight into the core store; call while holding the
  /// engine's `draining`.
  @inlinable @inline(__always)
  func reduceDirectly(_ action: Action) -> StoreTask {
    // The counted commit inlines the plain locked commit when nobody
    // receives values; no commit middleware reads the trace on this path.
    // A plain reference to the engine costs what an unmanaged one did: 99
    // instructions per send (`Benchmarks/callgrind.sh --filter "forms
    // users write"`, S7).
    let engine = engine
    let tasks = ActionEngine.reduce(
      action, by: .passUnretained(engine), feature: engine.feature, cause: .send, knownUnobserved: true
    ) { trace, reduce in
      self.core.countedCommit(trace: trace()) { $0.modify(reduce) }.result
    }
    return StoreTask(started: tasks)
  }

  /// Runs `action` through the middleware pipeline, whose terminal is the
  /// engine's one reduce path; call while holding the engine's `draining`.
  /// Specialized in the caller's module, but kept out of `send`, whose path
  /// without middlewares stays small.
  @inlinable @inline(never)
  func passThroughMiddlewares(_ action: Action) -> StoreTask {
    // The run stays in its slot, which holds it, during the dispatch: no
    // one else uses the slot while this thread holds `draining`. The slot,
    // the run and its driver are used through unmanaged references (the
    // engine holds the slot), which spares retaining and releasing each:
    // with `takeUnretainedValue()` in this function a send through 3
    // middlewares costs 630 instructions instead of 470
    // (`Benchmarks/callgrind.sh --filter "4 vergeneue"`, 2026-11-28).
    Unmanaged.passUnretained(engine.spareRun)._withUnsafeGuaranteedRef { slot in
      if case .none = slot.value { slot.put(newRun()) }
      let run = Unmanaged.passUnretained(slot.value.unsafelyUnwrapped)
      run._withUnsafeGuaranteedRef { run in
        // The run keeps its driver, and the driver its cache, alive.
        Unmanaged.passUnretained(run.driver.cache.unsafelyUnwrapped)._withUnsafeGuaranteedRef { cache in
          defer { cache.end() }
          run.passFromTop(action)
        }
      }
      if run._withUnsafeGuaranteedRef({ $0.kept.load(ordering: .relaxed) }) {
        guard isKnownUniquelyReferenced(&slot.value) else {
          // A middleware kept a step (to delay the action, or just to hold
          // it): the run leaves the slot and resolves its ticket once the
          // last kept step is gone.
          return slot.take().unsafelyUnwrapped.escape()
        }
        // Every kept step is already gone: the run stays for reuse.
        run._withUnsafeGuaranteedRef { $0.kept.store(false, ordering: .relaxed) }
      }
      return run._withUnsafeGuaranteedRef { $0.finishInPlace() }
    }
  }

  /// A run of the pipeline, which is formed the first time.
  @inlinable
  func newRun() -> ChainRun<Action, State> {
    formPipeline()
    // Only the direct send, which found no event observer, uses this run.
    return ChainRun(driver: engine.pipelineDriver.unsafelyUnwrapped, knownUnobserved: true)
  }

  /// Forms the middleware pipeline, unless it is formed: before the first
  /// action reaches the engine, directly or queued.
  @inlinable
  func formPipeline() {
    guard !engine.hasPipeline.load(ordering: .acquiring) else { return }
    engine.installPipeline(makeDriver())
  }

  /// Forms the pipeline: its reducing closure is compiled here, in the
  /// caller's module, and its steps in the middlewares' modules.
  @inlinable
  func makeDriver() -> ChainDriver<Action, State> {
    let pipeline = ActionPipeline(core: core, engine: engine)
    // Chosen by the state's size here, so that, where this runs
    // unspecialized, a large state's terminal holds none of the small
    // path's temporaries.
    let terminal: @Sendable (Action, ChainRun<Action, State>, Bool) -> State?
    if MemoryLayout<State?>.size > ChainRun<Action, State>.inlineStateLimit {
      terminal = { message, run, owned in pipeline.reduceLarge(message, run, owned: owned) }
    } else {
      terminal = { message, run, owned in pipeline.reduceSmall(message, run, owned: owned) }
    }
    return ChainDriver(
      middlewares: engine.middlewares, cache: pipeline.cache, terminal: terminal,
      restart: { [weak engine] message in engine?.sendFromMiddleware(message) })
  }

  /// Reduces a recording's actions into this store, without running their
  /// effects (the actions effects sent were recorded on their own).
  ///
  /// - Parameter recording: What a `Recorder` captured.
  /// - Throws: `NeueError.replayStartMismatch` when the state is not the
  ///   recording's start state; nothing is reduced then.
  public func replay(_ recording: Recording<Action, State>) throws(NeueError) {
    try recording.verifyStart(core.untrackedState)
    for action in recording.messages {
      engine.reduceIgnoringEffects(action)
    }
  }
}

// MARK: - Test tooling

extension ActionStore {
  /// Adds an observer that sees every reduced action with the state before
  /// and after and where it came from, and every failed effect.
  ///
  /// Meant for test tooling such as VergeTesting's `TestStore`. The handler
  /// runs synchronously, after each reduction, outside the store's lock,
  /// in reduction order.
  ///
  /// - Parameter handler: Receives each event.
  /// - Returns: A token; releasing or cancelling it removes the observer.
  /// - Complexity: While an observer is installed every reduction keeps the
  ///   previous state, so it copies the collections it touches.
  public func observeEvents(_ handler: @escaping @Sendable (ActionEvent<Action, State>) -> Void) -> EventObservation {
    engine.observers.add(handler)
  }

  /// Adds an observer that sees every reduction with its cause (for an
  /// action an effect sent: the effect and the action that started it), and
  /// every effect task's start and end.
  ///
  /// Meant for test tooling such as VergeTesting's `TestStore`: it lets a
  /// tool attribute each received action, and each effect still running,
  /// to the `send` that started the work. See `ActionLifecycleEvent` for
  /// the ordering guarantees.
  ///
  /// - Parameter handler: Receives each event, synchronously, outside the
  ///   store's lock.
  /// - Returns: A token; releasing or cancelling it removes the observer.
  /// - Complexity: While an observer is installed every reduction keeps the
  ///   previous state, so it copies the collections it touches.
  public func observeLifecycle(
    _ handler: @escaping @Sendable (ActionLifecycleEvent<Action, State>) -> Void
  ) -> EventObservation {
    engine.lifecycle.add { handler($0.event) }
  }

  /// `observeLifecycle(_:)` with, for each `reduced` event, where its two
  /// states are for the time of the call: VergeTesting copies them from
  /// there, without holding either on the stack.
  package func observeLifecycleLendingStates(
    _ handler: @escaping @Sendable (LifecycleDelivery<Action, State>) -> Void
  ) -> EventObservation {
    engine.lifecycle.add(handler)
  }

  /// Calls `handler` with `true` when a thread starts reducing the queued
  /// actions (a pass), and with `false` when it has emptied the queue,
  /// before it stops: everything the actions reduced in the pass queued
  /// with `Effect.send` (and so on) has been reduced and its lifecycle
  /// events emitted. A store with a lifecycle observer reduces every action
  /// sent to it in such a pass (a middleware may still pass one on later,
  /// from outside any). For VergeTesting's `TestStore`, which returns from
  /// a step only once the pass that reduced it has ended.
  ///
  /// - Parameter handler: Called on the reducing thread.
  /// - Returns: The observation; cancel it to stop.
  package func observeQueuePasses(_ handler: @escaping @Sendable (_ began: Bool) -> Void) -> EventObservation {
    engine.passes.add(handler)
  }

  /// Cancels every running effect of this store; for test tooling (a test
  /// store skipping the effects left at the end of a test).
  ///
  /// Cancelled effects send no more actions; `waitUntilIdle()` returns once
  /// their tasks have ended.
  public func cancelAllEffects() {
    engine.cancelAll()
  }

  /// How many effects are running; for test tooling.
  public var effectsInFlight: Int { engine.effectsInFlight }

  /// Waits, without polling, until no action is queued and no effect runs
  /// (including effects started while waiting); for test tooling.
  public func waitUntilIdle() async {
    await engine.inFlight.waitUntilIdle()
  }
}
