/// One change as its subscribers receive it, on the heap.
///
/// Queued events, and a derived value's last publish, hold a reference to
/// it rather than the states themselves: a state of any size then costs the
/// queue and the delivery loop one word, and a subscriber receives the
/// `Changes` stored here without a copy on the delivering thread's stack
/// (a 64 KiB state must work on a 512 KiB thread). The `let` is
/// what makes that so also in an unoptimized build: a call can borrow a
/// class's constant in place, where it copies what an accessor returns.
///
/// The box is generic over the whole `Changes<Value>`, not over `Value`:
/// a generic class's deinit is not specialized, and one that destroys a
/// `Changes<Value>` field has to look that type up at run time (about 330
/// instructions per change, paid by every derived value that publishes). A
/// field whose type is the class's own parameter needs no look-up.
@usableFromInline
typealias ChangeBox<Value: Sendable> = BoxedChanges<Changes<Value>>

/// The class behind `ChangeBox`; see there.
@usableFromInline
final class BoxedChanges<Payload: Sendable>: Sendable {
  @usableFromInline let changes: Payload

  @inlinable
  init(_ changes: Payload) {
    self.changes = changes
  }

  /// A box of the change from `previous` to `current`, copied from where
  /// they are (the locked storage, a heap copy), so the caller holds no copy
  /// of its own.
  @inlinable
  init<Value>(
    previous: UnsafePointer<Value>?, current: UnsafePointer<Value>, version: UInt64
  ) where Payload == Changes<Value> {
    #if DEBUG
      // An unoptimized build keeps each temporary of a function in a stack
      // slot of its own: building the `Changes` as a value there took three
      // state-sized slots, and storing it one more (384 KiB for a 64 KiB
      // state). Built in place on the heap instead, it costs the one slot
      // through which it moves in.
      let staging = UnsafeMutablePointer<Changes<Value>>.allocate(capacity: 1)
      defer { staging.deallocate() }
      Changes.initialize(staging, previous: previous, current: current, version: version)
      changes = staging.move()
    #else
      // Built where it is stored, by the optimizer.
      changes = Changes(copying: previous, current, version: version)
    #endif
  }

  /// Calls `body` with the address of the current state where this box
  /// holds it.
  ///
  /// Not inlinable: generic code reads the `let` in place, where code
  /// specialized for a large state copies it onto the stack first.
  @usableFromInline @inline(never)
  func withCurrent<Value>(_ body: (UnsafePointer<Value>) -> Void) where Payload == Changes<Value> {
    withUnsafePointer(to: changes.current, body)
  }
}
