/// Where a child's state lives in its parent's state: the one way
/// `embed`, `forEach`, `ifLet` and every scope reach a child's state.
///
/// The place is resolved once, when the feature is composed or the scope
/// made: a stored property (possibly several deep) has an offset, and each
/// write reaches the child in place through a pointer rather than
/// projecting the key path; any other key path (a computed property, a
/// subscript, a class) is projected on every access.
@usableFromInline
struct StateField<Root, Value> {
  /// The child's key path, which reads the child and writes it where it
  /// has no offset.
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  /// The stored property's offset in `Root`, `nil` when there is none.
  @usableFromInline let offset: Int?

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
    offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// The field of `keyPath`, which was appended from two `Sendable` key
  /// paths (see `StateField+Sendable.swift`).
  private init(appended keyPath: WritableKeyPath<Root, Value>) {
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

  /// The child in `root`.
  @inlinable
  func read(_ root: Root) -> Value {
    root[keyPath: keyPath]
  }

  /// The place of `child`'s state, a part of this child's, in `Root`.
  func appending<Child>(_ child: StateField<Value, Child>) -> StateField<Root, Child> {
    StateField<Root, Child>(appended: keyPath.appending(path: child.keyPath))
  }
}
