import Synchronization
import Verge

/// The reducing end of `ActionStore`'s specialized middleware pipeline, in
/// one object: the driver's `terminal` closure captures only this.
///
/// Its methods are inlinable, so the closure that calls them (formed in
/// `ActionStore.makeDriver()`, in the module that uses the store) runs them
/// specialized for the concrete reducer.
@usableFromInline
final class ActionPipeline<Feature: ActionReducer>: Sendable {
  @usableFromInline typealias Action = Feature.Action
  @usableFromInline typealias State = Feature.State

  @usableFromInline let core: Store<State, Feature.Activity>
  @usableFromInline let feature: Feature
  /// Weak: the engine holds the pipeline.
  @usableFromInline weak let engine: ActionEngine<Feature>?
  /// Each step reads the state before and after it; while nothing else
  /// changes the store, the cache answers without the store's lock.
  @usableFromInline let cache: StepStateCache<State>

  @inlinable
  init(core: Store<State, Feature.Activity>, engine: ActionEngine<Feature>) {
    self.core = core
    feature = engine.feature
    self.engine = engine
    cache = StepStateCache(counter: core.changeCounter, steps: engine.middlewares.count) { core.countedState() }
  }

  /// Past the last middleware: reduces `message`; returns the state after,
  /// or `nil` when the store is gone.
  @inlinable
  func reduce(_ message: Action, _ run: ChainRun<Action, State>, owned: Bool) -> State? {
    // A step kept past the store's end reduces nothing.
    guard run.driver.isStoreAlive.load(ordering: .acquiring) else { return nil }
    var effect = Effect<Action, Feature.Activity>.none
    let feature = feature
    // The trace is formed only if a commit middleware asks: describing an
    // action is costly.
    let (after, count) = core.countedCommit(
      trace: CommitTrace(name: "\(message)", file: #fileID, function: #function, line: #line)
    ) { ref in
      ref.modify { state -> State in
        effect = feature.reduce(into: &state, action: message)
        return state
      }
    }
    cache.remember(after, count: count, owned: owned)
    if !effect.isNone, let engine {
      run.add(engine.startEffects(effect, origin: message))
    }
    return after
  }
}
