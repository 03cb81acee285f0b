// Safe: after `init` (which runs before the writer exists) a `TraceFile` is
// used only on its writer's serial queue.
extension TraceFile: @unchecked Sendable {}
