import Verge

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
  /// - Parameters:
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
  func reduce(
    _ action: Action,
    cause: @autoclosure () -> ActionCause<Action>,
    knownUnobserved: Bool = false,
    observed: (UnsafePointer<State>) -> Void = { _ in },
    write: (
      _ trace: () -> CommitTrace, _ reduce: (inout State) -> Effect<Action, Feature.Activity>
    ) -> Effect<Action, Feature.Activity>
  ) -> [Task<Void, Never>]? {
    let effect: Effect<Action, Feature.Activity>
    if knownUnobserved || isUnobserved {
      // The reducer is read in place from the engine: a copy would retain
      // and release what a composed reducer holds.
      effect = write({ CommitTrace(name: "\(action)", file: #fileID, function: #function, line: #line) }) {
        feature.reduce(into: &$0, action: action)
      }
    } else {
      effect = reduceObserved(action, cause: cause(), reported: observed)
    }
    guard !startsNothing(effect) else { return nil }
    return start(effect, origin: action)
  }
}
