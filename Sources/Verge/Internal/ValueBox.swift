/// A copy of a state on the heap: the previous state of a large state's
/// commit, kept for its subscribers and middlewares.
///
/// The copy is made with `initialize(from:count:)`, element-wise from
/// memory to memory: assigning `pointee` to a stored property copies a
/// state that holds references through two temporaries on the stack (the
/// retains), 128 KiB for a 64 KiB state. `address` lets the change box copy
/// it again the same way, where reading a stored property would copy it
/// onto the stack first.
@usableFromInline
final class ValueBox<Value: Sendable> {
  /// The copy; written only here, and freed with the box.
  @usableFromInline let address: UnsafeMutablePointer<Value>

  /// Copies the value from where it is (the locked storage).
  @inlinable
  init(copying value: UnsafePointer<Value>) {
    address = .allocate(capacity: 1)
    address.initialize(from: value, count: 1)
  }

  deinit {
    address.deinitialize(count: 1)
    address.deallocate()
  }
}
