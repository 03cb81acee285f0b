/// Tells a method-reducer test store's event observer who is committing:
/// the test itself, or one of its dispatched actions.
///
/// A dispatched action runs in the task the test store starts for it (and
/// an action commits synchronously, in its own task), so a task-local
/// value set around that task reaches every commit the action makes,
/// including those of actions it dispatches and of tasks it starts with
/// `Task { }`. Only `Task.detached` loses it; such commits are reported
/// without an origin.
enum CommitScope {
  struct Tag: Sendable {
    /// The ledger of the test store that set it.
    let ledger: ObjectIdentifier
    /// The dispatch's origin index; `nil` for the test's own `commit`.
    let origin: Int?
  }

  /// The commit's tag, when a test store's commit or dispatch set one.
  @TaskLocal static var current: Tag?
}
