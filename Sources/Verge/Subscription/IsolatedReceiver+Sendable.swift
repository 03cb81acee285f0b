// `receive` runs only on `actor` (the main actor: in place only on the main
// thread, otherwise through `MainActor.assumeIsolated` in a drain; other
// actors by `drain(on:)`'s isolated parameter), one payload at a time in
// arrival order; the mailbox is locked and `isScheduled` is atomic.
extension IsolatedReceiver: @unchecked Sendable {}

