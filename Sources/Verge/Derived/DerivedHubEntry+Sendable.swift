// An entry's `update` and the memo of its subclasses are used only by its hub, inside the
// source's delivery, which runs one event at a time (and first under the source's lock,
// before the entry joins the hub); `target` is set once before then, and `startSequence` is atomic.
extension DerivedHubEntry: @unchecked Sendable {}
