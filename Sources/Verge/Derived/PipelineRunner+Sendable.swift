// A runner is called first on the thread that creates its derived value, before it
// subscribes, and afterwards only from its source's delivery, which runs one event at
// a time; its mutable memo is never touched concurrently.
extension PipelineRunner: @unchecked Sendable {}
