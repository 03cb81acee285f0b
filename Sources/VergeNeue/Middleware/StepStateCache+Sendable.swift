// Safe: `state` and `count` are touched only by a dispatch's synchronous pass (steps marked `ownsCache`, which are borrowed and not Sendable, so they run one at a time within the dispatch) and by the dispatching thread after it; dispatches are ordered by the engine's `draining` flag. Kept steps never touch them.
extension StepStateCache: @unchecked Sendable {}
