/// A child's place in its parent's state, resolved once when the feature
/// is composed: a stored property's offset when the key path has one, so
/// that each action reaches the child in place through a pointer rather
/// than projecting the key path at run time; the key path otherwise (a
/// computed property, a class).
@usableFromInline
struct StateField<Root, Value>: Sendable {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value> & Sendable
  /// The stored property's offset in `Root`, `nil` when there is none.
  @usableFromInline let offset: Int?

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
    offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Runs `body` on the child in `root`, in place.
  @inlinable @inline(__always)
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let offset else { return body(&root[keyPath: keyPath]) }
    // `offset(of:)` promises that the value lives at that offset.
    return withUnsafeMutablePointer(to: &root) { pointer in
      body(&(UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
    }
  }
}
