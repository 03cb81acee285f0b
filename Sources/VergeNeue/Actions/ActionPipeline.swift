import Synchronization
import Verge

/// What `ActionStore`'s specialized middleware pipeline needs, in one
/// object: the pipeline's closure captures only this, so calling it loads
/// one context rather than one per part.
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
  /// Keeps the middlewares, and so their handlers, alive.
  @usableFromInline let middlewares: [Middleware<Action, State>]
  /// The handlers, called through unmanaged references (`middlewares`
  /// keeps them alive): this spares a retain and a release per step.
  @usableFromInline let handlers: [Unmanaged<MiddlewareHandler<Action, State>>]

  @inlinable
  init(core: Store<State, Feature.Activity>, engine: ActionEngine<Feature>) {
    self.core = core
    feature = engine.feature
    self.engine = engine
    cache = engine.stepCache
    middlewares = engine.middlewares
    handlers = engine.middlewares.map { Unmanaged.passUnretained($0.handler) }
  }

  /// Runs `message` from middleware `index` on; see `ChainDriver.forward`.
  @inlinable
  func forward(_ message: Action, _ index: Int, _ run: ChainRun<Action, State>) -> State? {
    let owned = cache.isOwned
    guard index < handlers.count else { return reduce(message, run, owned: owned) }
    let step = MiddlewareStep(
      message: message, stateBefore: cache.read(core, owned: owned), index: index,
      run: Unmanaged.passUnretained(run))
    handlers[index]._withUnsafeGuaranteedRef { $0.handle(step) }
    return cache.read(core, owned: owned)
  }

  /// Past the last middleware: reduces `message`. Out of line, so that a
  /// middleware's step stays a small function.
  @inlinable @inline(never)
  func reduce(_ message: Action, _ run: ChainRun<Action, State>, owned: Bool) -> State? {
    // A step kept past the store's end reduces nothing.
    guard run.driver.isStoreAlive.load(ordering: .acquiring) else { return nil }
    var effect = Effect<Action>.none
    let feature = feature
    // The trace is formed only if a commit middleware asks: describing an
    // action is costly.
    let (after, count) = core._countedCommit(
      trace: CommitTrace(name: "\(message)", file: #fileID, function: #function, line: #line)
    ) { ref in
      ref.modify { state -> State in
        effect = feature.reduce(into: &state, action: message)
        return state
      }
    }
    cache.remember(after, count: count, owned: owned)
    if !effect.items.isEmpty, let engine {
      run.add(engine.startEffects(effect, origin: message))
    }
    return after
  }
}
