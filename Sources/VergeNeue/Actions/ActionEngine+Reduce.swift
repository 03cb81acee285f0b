import Verge
import Synchronization

extension ActionEngine {
  /// Reduces `action` and starts the effects it returns: the one path every
  /// enum action takes to its reducer, whatever the observers, middlewares
  /// and contention. What a reduction does beyond the commit (event
  /// observers, the trace, effects and the dependencies they run with) is
  /// decided here, for all of them.
  ///
  /// Its callers differ only in how the reduction is committed when nothing
  /// observes it (`write`), which is compiled where they are:
  ///
  /// - a direct send (`ActionStore.send`, no middleware, no other thread
  ///   reducing): the core store's commit, specialized in the caller's
  ///   module;
  /// - the middleware pipeline's terminal (`ActionPipeline`), for a direct
  ///   and a queued send alike: the same commit, which also hands the state
  ///   after to the pipeline;
  /// - a queued send without middlewares: `access`, out of line, which is
  ///   how a scope's engine writes its part of the root.
  ///
  /// With an event observer, the reduction is the observed commit instead
  /// (`reduceObserved`), whatever the caller.
  ///
  /// The engine is lent unmanaged, and reached only for small reads and
  /// off the fast path: the middlewares' terminal holds it unretained, and
  /// retaining an engine (which weak references give a side table) takes
  /// the slow path, so the reduction itself runs outside any use of it.
  /// Those reads take it with `takeUnretainedValue()`, which measured the
  /// same as a borrow on every hot path of `Benchmarks/` (2026-11-28).
  ///
  /// - Parameters:
  ///   - engine: The engine, alive for the duration of the call.
  ///   - feature: The reducer, read in place where the caller holds it (a
  ///     copy would retain and release what a composed reducer holds).
  ///   - cause: Why the action is reduced; read only when an observer sees
  ///     the reduction.
  ///   - knownUnobserved: `true` when the caller has just found no
  ///     observer, which spares reading that again.
  ///   - write: Commits the reduction (its second argument) named by its
  ///     first argument, formed only if a commit middleware asks (describing
  ///     an action is costly); returns the effect, `.none` when a root's
  ///     pipeline dropped or held it (see `FragmentAccess.reduce`).
  ///   - observed: Receives where the state after an observed reduction is,
  ///     for the time of the call. Not optional: an optional closure would
  ///     escape, and a variable it captures would move to the heap.
  /// - Returns: The effect tasks the reduction started; `nil` when its
  ///   effect starts nothing.
  @inlinable @inline(__always)
  static func reduce(
    _ action: Action,
    by engine: Unmanaged<ActionEngine>,
    feature: Feature,
    cause: @autoclosure () -> ActionCause<Action>,
    knownUnobserved: Bool = false,
    observed: (UnsafePointer<State>) -> Void = { _ in },
    write: (
      _ trace: () -> CommitTrace, _ reduce: (inout State) -> Effect<Action, Feature.Activity>
    ) -> Effect<Action, Feature.Activity>
  ) -> [Task<Void, Never>]? {
    let effect: Effect<Action, Feature.Activity>
    if knownUnobserved
      || (engine.takeUnretainedValue().observers.count.load(ordering: .relaxed) == 0
        && engine.takeUnretainedValue().lifecycle.count.load(ordering: .relaxed) == 0)
    {
      effect = write({ CommitTrace(name: "\(action)", file: #fileID, function: #function, line: #line) }) {
        feature.reduce(into: &$0, action: action)
      }
    } else {
      effect = engine.takeUnretainedValue().reduceObserved(action, cause: cause(), reported: observed)
    }
    if case .none = effect.storage { return nil }
    let engine = engine.takeUnretainedValue()
    return engine.startsNothing(effect) ? nil : engine.start(effect, origin: action)
  }
}
