// An entry's `update` closure is called only by its hub, inside the source's delivery,
// which runs one event at a time; the rest of the entry is immutable or atomic.
extension DerivedHub.Entry: @unchecked Sendable {}
