import Synchronization

/// What counts the changes of a store's state: what `Store.version`
/// reads, in an object of its own so that it can be read without knowing
/// the store's state and activity types.
///
/// `package`, for inlinable code of VergeNeue (its middleware pipeline
/// reads it between steps).
@usableFromInline
package final class ChangeCounter: Sendable {
  /// The core's `storage.sequence` at the last change of the state,
  /// written under the core's lock (see `StateCore.countChange`).
  @usableFromInline let changeCount = Atomic<UInt64>(0)

  @usableFromInline
  init() {}

  /// The current count, read without the lock: two equal readings mean
  /// the state did not change in between.
  @inlinable
  package var current: UInt64 {
    changeCount.load(ordering: .relaxed)
  }
}
