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
      counter: core.changeCounter, steps: engine.middlewares.count, readState: { core.untrackedState }
    ) { core.countedState() }
  }

  /// Past the last middleware: reduces `message`; returns the state after,
  /// or `nil` when the store is gone.
  ///
  /// - Parameter owned: Whether the caller is the dispatch's synchronous
  ///   pass (rather than a kept step).
  @inlinable
  func reduce(_ message: Action, _ run: ChainRun<Action, State>, owned: Bool) -> State? {
    // A step kept past the store's end reduces nothing.
    guard run.driver.isStoreAlive.load(ordering: .acquiring) else { return nil }
    if owned {
      return reduce(message, run, by: dispatchingEngine, owned: true, knownUnobserved: run.knownUnobserved)
    }
    guard let engine else { return nil }
    return withExtendedLifetime(engine) { reduce(message, run, by: .passUnretained(engine), owned: false) }
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
      return reduceHoldingNoState(message, run, by: engine, owned: owned, knownUnobserved: knownUnobserved)
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
    _ message: Action, _ run: ChainRun<Action, State>, by engine: Unmanaged<ActionEngine<Feature>>, owned: Bool,
    knownUnobserved: Bool
  ) -> State? {
    let (core, cache) = (core, cache)
    let after = UnsafeMutablePointer<State?>.allocate(capacity: 1)
    defer { after.deallocate() }
    initializeToNil(after)
    let tasks = ActionEngine.reduce(
      message, by: engine, feature: feature, cause: run.cause, knownUnobserved: knownUnobserved,
      observed: { after.pointee = $0.pointee }
    ) { trace, reduce in
      let (effect, count) = core.countedCommit(trace: trace()) { ref in
        ref.modify { state in
          let effect = reduce(&state)
          after.pointee = state
          return effect
        }
      }
      cache.remember(at: after, count: count, owned: owned)
      return effect
    }
    if let tasks { run.add(tasks) }
    return after.move()
  }
}
