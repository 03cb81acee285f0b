/// A child's state in a stored property of its parent's state (possibly
/// several stored properties deep), reached through its offset.
@usableFromInline
struct StoredChildState<Root, Value>: ChildState {
  /// Where the property lives in `Root`, from `MemoryLayout.offset(of:)`.
  @usableFromInline let offset: Int

  @inlinable
  init(offset: Int) {
    self.offset = offset
  }

  @inlinable @inline(__always)
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    // `offset(of:)` promises that the value lives at that offset.
    withUnsafeMutablePointer(to: &root) { pointer in
      body(&(UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
    }
  }
}
