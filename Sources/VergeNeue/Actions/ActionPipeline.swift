import Synchronization
import Verge

/// The reducing end of `ActionStore`'s middleware pipeline, in one object:
/// the driver's `terminal` closure captures only this.
///
/// Its methods are inlinable, so the closure that calls them (formed in
/// `ActionStore.makeDriver()`, in the module that uses the store) runs them
/// specialized for the concrete reducer. Direct and queued sends go through
/// it alike; it reduces through the engine's one reduce path.
@usableFromInline
final class ActionPipeline<Feature: ActionReducer>: Sendable {
  @usableFromInline typealias Action = Feature.Action
  @usableFromInline typealias State = Feature.State

  @usableFromInline let core: Store<State, Feature.Activity>
  /// The engine's reducer, read in place here.
  @usableFromInline let feature: Feature
  /// Weak: the engine holds the pipeline. Read by a kept step, which may
  /// run after the engine is gone.
  @usableFromInline weak let engine: ActionEngine<Feature>?
  /// The engine, for the dispatch's synchronous pass: that pass runs from
  /// the engine's drain or from `ActionStore.send`, which hold the engine
  /// for its duration. Unmanaged: loading the weak reference, or retaining
  /// the engine (which weak references give a side table, so its counts
  /// take the slow path), costs more per dispatch than the rest of the
  /// terminal.
  @usableFromInline let dispatchingEngine: Unmanaged<ActionEngine<Feature>>
  /// Each step reads the state before and after it; while nothing else
  /// changes the store, the cache answers without the store's lock.
  @usableFromInline let cache: StepStateCache<State>

  @inlinable
  init(core: Store<State, Feature.Activity>, engine: ActionEngine<Feature>) {
    self.core = core
    feature = engine.feature
    self.engine = engine
    dispatchingEngine = Unmanaged.passUnretained(engine)
    cache = StepStateCache(
      counter: core.changeCounter, steps: engine.middlewares.count, copyState: { core.copyState(to: $0) }
    ) { core.countedState() }
  }

  /// Past the last middleware, for a state larger than
  /// `ChainRun.inlineStateLimit`: reduces `message`; returns the state
  /// after, or `nil` when the store is gone. `ActionStore.makeDriver()`
  /// picks this terminal or `reduceSmall` by the state's size.
  ///
  /// - Parameter owned: Whether the caller is the dispatch's synchronous
  ///   pass (rather than a kept step).
  ///
  /// No branch of it holds a state: where it runs unspecialized (a
  /// pipeline formed in generic code, as VergeTesting's), a slot of the
  /// state's size is reserved on entry for every temporary of every branch.
  @inlinable @inline(never)
  func reduceLarge(_ message: Action, _ run: ChainRun<Action, State>, owned: Bool) -> State? {
    guard run.driver.isStoreAlive.load(ordering: .acquiring) else { return nil }
    if owned {
      return reduceHoldingNoState(message, run, by: dispatchingEngine, knownUnobserved: run.knownUnobserved)
    }
    guard let engine else { return nil }
    defer { withExtendedLifetime(engine) {} }
    return reduceHoldingNoState(message, run, by: .passUnretained(engine), knownUnobserved: false)
  }

  /// The terminal for a state no larger than `ChainRun.inlineStateLimit`,
  /// inlined in the closure `ActionStore.makeDriver()` forms; see
  /// `reduceLarge(_:_:owned:)`.
  @inlinable @inline(__always)
  func reduceSmall(_ message: Action, _ run: ChainRun<Action, State>, owned: Bool) -> State? {
    // A step kept past the store's end reduces nothing.
    guard run.driver.isStoreAlive.load(ordering: .acquiring) else { return nil }
    if owned {
      return reduce(message, run, by: dispatchingEngine, owned: true, knownUnobserved: run.knownUnobserved)
    }
    guard let engine else { return nil }
    // Not `withExtendedLifetime(_:_:)`'s closure, whose result would take a
    // slot of the state's size in this frame.
    defer { withExtendedLifetime(engine) {} }
    return reduce(message, run, by: .passUnretained(engine), owned: false)
  }

  /// The terminal's reduction, through the engine's one reduce path.
  @inlinable @inline(__always)
  func reduce(
    _ message: Action, _ run: ChainRun<Action, State>, by engine: Unmanaged<ActionEngine<Feature>>, owned: Bool,
    knownUnobserved: Bool = false
  )
    -> State?
  {
    // Decided when this is compiled for the state's type, as in
    // `ChainRun.advance`.
    if MemoryLayout<State?>.size > ChainRun<Action, State>.inlineStateLimit {
      return reduceHoldingNoState(message, run, by: engine, knownUnobserved: knownUnobserved)
    }
    var after: State?
    let tasks = ActionEngine.reduce(
      message, by: engine, feature: feature, cause: run.cause, knownUnobserved: knownUnobserved,
      observed: { after = $0.pointee }
    ) { trace, reduce in
      let ((effect, state), count) = self.core.countedCommit(trace: trace()) { ref in
        ref.modify { state in (reduce(&state), state) }
      }
      self.cache.remember(state, count: count, owned: owned)
      after = state
      return effect
    }
    if let tasks { run.add(tasks) }
    return after
  }

  /// `reduce` for a state larger than `ChainRun.inlineStateLimit`: out of
  /// line, with the state after on the heap until it is returned, so that
  /// this frame holds no copy of a state (a 64 KiB state through three
  /// middlewares must fit a 512 KiB thread, also in unoptimized builds).
  @inlinable @inline(never)
  func reduceHoldingNoState(
    _ message: Action, _ run: ChainRun<Action, State>, by engine: Unmanaged<ActionEngine<Feature>>,
    knownUnobserved: Bool
  ) -> State? {
    // The state after, on the heap; `written` once initialized. Copied in
    // place: an assignment would take slots of the state's size. Freed by
    // `takeOut`, the last call, which returns the state straight into this
    // function's result.
    let after = UnsafeMutablePointer<State>.allocate(capacity: 1)
    var written = false
    let tasks = ActionEngine.reduce(
      message, by: engine, feature: feature, cause: run.cause, knownUnobserved: knownUnobserved,
      observed: {
        after.initialize(from: $0, count: 1)
        written = true
      }
    ) { trace, reduce in
      // Out of line: inlined, the commit's temporaries would take slots of
      // the state's size in this frame, also when the observed branch runs.
      commitHoldingNoState(trace: trace, into: after, written: &written, reduce)
    }
    if let tasks { run.add(tasks) }
    return takeOut(after, written: written)
  }

  /// The commit of `reduceHoldingNoState`, out of line and unspecialized
  /// (through the core store's out-of-line commit): it reserves stack for
  /// a state only when it runs. Initializes `after` with the state after
  /// (and sets `written`); returns the effect.
  ///
  /// The pipeline's cache is not told the state after: for a large state,
  /// copying it there took a slot of its size on this stack, and the steps
  /// above read the store instead, which holds that same state unless a
  /// later commit changed it (when the cache would not answer either).
  @usableFromInline
  func commitHoldingNoState(
    trace: () -> CommitTrace, into after: UnsafeMutablePointer<State>, written: inout Bool,
    _ reduce: (inout State) -> Effect<Action, Feature.Activity>
  ) -> Effect<Action, Feature.Activity> {
    let (effect, _) = core.commitOutOfLine(trace: trace()) { ref in
      ref.modify { state in
        let effect = reduce(&state)
        // Copied in place: `initialize(to:)` would copy the state into a
        // slot of its size on this stack first.
        after.initialize(from: &state, count: 1)
        return effect
      }
    }
    written = true
    return effect
  }
}
