import Synchronization

/// What counts the changes of a store's state: what `Store._changeCount`
/// reads, in an object of its own so that it can be read without knowing
/// the store's state and activity types.
///
/// For inlinable code of libraries built on Verge (VergeNeue's middleware
/// pipeline reads it between steps); the underscore says it is not for
/// applications.
public final class _ChangeCounter: Sendable {
  /// The core's `storage.sequence` at the last change of the state,
  /// written under the core's lock (see `StateCore.countChange`).
  @usableFromInline let changeCount = Atomic<UInt64>(0)

  @usableFromInline
  init() {}

  /// The current count, read without the lock: two equal readings mean
  /// the state did not change in between.
  @inlinable
  public var _current: UInt64 {
    changeCount.load(ordering: .relaxed)
  }
}
