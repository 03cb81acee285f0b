/// A child's state behind a key path with no offset (a computed property,
/// a subscript), reached through the key path on every action.
@usableFromInline
struct KeyPathChildState<Root, Value>: ChildState {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value> & Sendable

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
  }

  @inlinable @inline(__always)
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    body(&root[keyPath: keyPath])
  }
}
