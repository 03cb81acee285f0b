/// A key path usable as a dictionary key across threads.
struct SendableKeyPath: Hashable {
  let keyPath: AnyKeyPath

  init(_ keyPath: AnyKeyPath) {
    self.keyPath = keyPath
  }
}
