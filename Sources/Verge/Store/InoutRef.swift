/// The state as a commit closure sees it: writable in place, and aware of
/// whether anything was written.
///
/// Member lookup reads and writes the state directly, with no copy:
///
/// ```swift
/// store.commit { $0.count += 1 }
/// store.commit { $0.items[3].title = "Done" }
/// store.commit { $0.items.append(item) }
/// ```
///
/// A commit whose closure writes nothing notifies no one. Reads do not count
/// as writes; `$0.count += 0` does (and is then compared with the previous
/// state when one is kept).
///
/// An `InoutRef` is valid only inside the closure that received it: do not
/// store it or hand it to another thread.
@dynamicMemberLookup
public struct InoutRef<Wrapped> {
  @usableFromInline let pointer: UnsafeMutablePointer<Wrapped>
  @usableFromInline let written: UnsafeMutablePointer<Bool>

  @usableFromInline
  init(_ pointer: UnsafeMutablePointer<Wrapped>, written: UnsafeMutablePointer<Bool>) {
    self.pointer = pointer
    self.written = written
  }

  /// The whole value, read-only.
  @inlinable
  public var wrapped: Wrapped { pointer.pointee }

  /// Reads a property that cannot be written (a `let` or a computed getter).
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<Wrapped, Value>) -> Value {
    pointer.pointee[keyPath: keyPath]
  }

  /// Reads or writes a property in place; writing marks the commit as a change.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Wrapped, Value>) -> Value {
    get { pointer.pointee[keyPath: keyPath] }
    nonmutating _modify {
      written.pointee = true
      yield &pointer.pointee[keyPath: keyPath]
    }
    nonmutating set {
      written.pointee = true
      pointer.pointee[keyPath: keyPath] = newValue
    }
  }

  /// Gives `body` the whole value as `inout`, for mutating methods of the
  /// state itself; counts as a write.
  ///
  /// ```swift
  /// store.commit { $0.modify { state in state.reset() } }
  /// ```
  ///
  /// - Parameter body: Mutates the value in place.
  /// - Returns: What `body` returned.
  @inlinable
  public func modify<Result, Failure: Error>(
    _ body: (inout Wrapped) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    written.pointee = true
    return try body(&pointer.pointee)
  }

  /// Counts the commit as a write without changing anything: its
  /// subscribers are notified (with equal previous and current states).
  ///
  /// ```swift
  /// store.commit { $0.markAsModified() }
  /// ```
  @inlinable
  public func markAsModified() {
    written.pointee = true
  }

  /// Replaces the whole value; counts as a write.
  ///
  /// - Parameter newValue: The value to store.
  @inlinable
  public func replace(with newValue: Wrapped) {
    written.pointee = true
    pointer.pointee = newValue
  }
}
