// `receive` runs only on `actor` (the main actor is checked by
// `MainActor.assumeIsolated`, other actors by `drain(on:)`'s isolated
// parameter), one payload at a time in arrival order; the mailbox is locked.
extension IsolatedReceiver: @unchecked Sendable {}

