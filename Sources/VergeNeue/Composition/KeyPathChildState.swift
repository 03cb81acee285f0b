/// A child's state behind a key path with no offset (a computed property,
/// a subscript, a class), reached through the key path on every access.
@usableFromInline
struct KeyPathChildState<Root, Value>: ChildState {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// The place of `keyPath`, appended from two `Sendable` key paths (see
  /// `KeyPathChildState+Sendable.swift`).
  private init(appended keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
  }

  @inlinable @inline(__always)
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    body(&root[keyPath: keyPath])
  }

  /// The child's state in `root`.
  @inlinable
  func read(_ root: Root) -> Value {
    root[keyPath: keyPath]
  }

  /// The place of `child`'s state, a part of this child's, in `Root`.
  func appending<Child>(_ child: KeyPathChildState<Value, Child>) -> KeyPathChildState<Root, Child> {
    KeyPathChildState<Root, Child>(appended: keyPath.appending(path: child.keyPath))
  }
}
