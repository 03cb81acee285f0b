import Synchronization

/// How many tasks of a composition's children may still be running: a
/// count raised when a reduction returns a child's tasks and lowered when
/// each of them ends.
///
/// Zero means no child has a task that a removal would need to cancel, so
/// `forEach` need not look for removed elements at all. A task that is
/// dropped before it starts (its element removed by the same reduction, its
/// store gone) never lowers the count: the count then stays above zero and
/// `forEach` looks for removals as if tasks ran, which is only slower.
@usableFromInline
final class RunningEffects: Sendable {
  @usableFromInline let count = Atomic<Int>(0)

  @inlinable
  init() {}

  /// Whether no child task can be running.
  @inlinable
  var isIdle: Bool {
    count.load(ordering: .acquiring) == 0
  }

  /// Counts `tasks` more tasks, about to be returned to the store.
  @inlinable
  func add(_ tasks: Int) {
    count.wrappingAdd(tasks, ordering: .releasing)
  }

  /// Counts one task that ended.
  @usableFromInline
  func end() {
    count.wrappingSubtract(1, ordering: .releasing)
  }
}
