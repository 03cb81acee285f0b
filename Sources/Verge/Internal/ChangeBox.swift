/// One change as its subscribers receive it, on the heap.
///
/// Queued events, and a derived value's last publish, hold a reference to
/// it rather than the states themselves: a state of any size then costs the
/// queue and the delivery loop one word, and a subscriber receives the
/// `Changes` stored here without a copy on the delivering thread's stack
/// (issue 23: a 64 KiB state must work on a 512 KiB thread).
@usableFromInline
final class ChangeBox<Value: Sendable>: Sendable {
  @usableFromInline let changes: Changes<Value>

  @inlinable
  init(_ changes: Changes<Value>) {
    self.changes = changes
  }

  /// Copies the states from where they are (the locked storage, another
  /// box), so the caller holds no copy of its own.
  @inlinable
  init(previous: UnsafePointer<Value>?, current: UnsafePointer<Value>, version: UInt64) {
    changes = Changes(copying: previous, current, version: version)
  }

  /// Calls `body` with the address of the current state where this box
  /// holds it.
  ///
  /// Not inlinable: generic code reads the `let` in place, where code
  /// specialized for a large state copies it onto the stack first.
  @usableFromInline @inline(never)
  func withCurrent(_ body: (UnsafePointer<Value>) -> Void) {
    withUnsafePointer(to: changes.current, body)
  }
}
