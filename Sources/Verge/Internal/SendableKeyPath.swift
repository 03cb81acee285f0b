/// A key path usable as a dictionary key across threads.
@usableFromInline
struct SendableKeyPath: Hashable {
  @usableFromInline let keyPath: AnyKeyPath

  @inlinable
  init(_ keyPath: AnyKeyPath) {
    self.keyPath = keyPath
  }
}
