// Used by one batch at a time: the thread that started the task blocks until it ends, so accesses never overlap.
extension Unshared: @unchecked Sendable {}
