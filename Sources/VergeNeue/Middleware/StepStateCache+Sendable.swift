// Safe: `state` and `count` are touched only by the thread recorded in the atomic `owner` (the one running the dispatch synchronously); every other thread checks `owner` and reads the store instead.
extension StepStateCache: @unchecked Sendable {}
