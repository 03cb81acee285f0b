/// Where a child's state lives in its parent's state, resolved once from
/// its key path: the one accessor of a child's state, which `embed`,
/// `forEach`, `ifLet` and every scope hold.
///
/// A stored property (possibly several deep) has an offset, and is reached
/// in place through a pointer (``StoredChildState``); any other key path (a
/// computed property, a subscript, a class) is projected on every access
/// (``KeyPathChildState``). A scope writes through ``modify(_:_:)``, which
/// chooses between the two on each write; a composition is made for the
/// chosen one (``resolved(_:)``), so that its reduction does not choose.
@usableFromInline
struct StateField<Root, Value>: ChildState {
  /// The child's key path, which reads the child and reaches it when it
  /// has no offset.
  @usableFromInline let throughKeyPath: KeyPathChildState<Root, Value>
  /// The child's stored property, `nil` when the key path has no offset.
  @usableFromInline let stored: StoredChildState<Root, Value>?

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value> & Sendable) {
    self.init(resolving: KeyPathChildState(keyPath))
  }

  @inlinable
  init(resolving throughKeyPath: KeyPathChildState<Root, Value>) {
    self.throughKeyPath = throughKeyPath
    stored = MemoryLayout<Root>.offset(of: throughKeyPath.keyPath).map(StoredChildState.init(offset:))
  }

  /// Runs `body` on the child in `root`, in place.
  @inlinable @inline(__always)
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let stored else { return throughKeyPath.modify(&root, body) }
    return stored.modify(&root, body)
  }

  /// The child in `root`.
  @inlinable
  func read(_ root: Root) -> Value {
    throughKeyPath.read(root)
  }

  /// What `maker` makes for the child's place, given as the kind of place
  /// it is, so that what it makes is specialized for that kind.
  @inlinable
  func resolved<Maker: ChildStateMaker<Root, Value>>(_ maker: Maker) -> Maker.Made {
    guard let stored else { return maker(throughKeyPath) }
    return maker(stored)
  }

  /// The field of `child`'s state, a part of this child's, in `Root`.
  func appending<Child>(_ child: StateField<Value, Child>) -> StateField<Root, Child> {
    StateField<Root, Child>(resolving: throughKeyPath.appending(child.throughKeyPath))
  }
}
