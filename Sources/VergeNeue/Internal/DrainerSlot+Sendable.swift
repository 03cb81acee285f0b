// Safe: only the one thread holding the engine's `draining` flag touches it, and taking and releasing that flag orders those threads.
extension DrainerSlot: @unchecked Sendable {}
