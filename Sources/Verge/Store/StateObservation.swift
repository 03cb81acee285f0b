import Observation

/// Connects reads through `store.state` with Swift Observation.
///
/// Each property read registers an access on this object (the subject the
/// Observation machinery sees) under a key path that stands for the state's
/// key path, and arms a check that remembers the value read. When a commit
/// changes that value, the check fires `withMutation` for that key path
/// alone and disarms; the next read arms it again. So a reader is
/// invalidated only by commits that change what it read, and the store keeps
/// just the small values that were read, never a whole previous state.
@usableFromInline
final class StateObservation<State: Sendable>: Observable, Sendable {
  @usableFromInline typealias Check = @Sendable (State) -> Bool

  @usableFromInline
  struct Armed: Sendable {
    /// Few at a time (what one reader read), so a list beats a dictionary.
    @usableFromInline var checks: [(key: SendableKeyPath, changed: Check)] = []
    @usableFromInline var subscription: StoreSubscription?

    @usableFromInline
    init() {}
  }

  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline let armed = LockedBox(Armed())
  @usableFromInline let subscribe: @Sendable (@escaping @Sendable (State) -> Void) -> StoreSubscription?

  /// - Parameter subscribe: Registers a receiver of every state change of
  ///   the store, without a first delivery; `nil` once the store is gone.
  @usableFromInline
  init(subscribe: @escaping @Sendable (@escaping @Sendable (State) -> Void) -> StoreSubscription?) {
    self.subscribe = subscribe
    wholeState = SendableKeyPath(\State.self)
  }

  /// The key for reads of the whole state, formed once: forming `\State.self`
  /// in generic code is a run-time call.
  @usableFromInline let wholeState: SendableKeyPath

  /// Stands for the state's key path in the registrar; never read.
  @usableFromInline
  subscript(member member: SendableKeyPath) -> Void { () }

  @inlinable
  func arm(_ keyPath: SendableKeyPath, check: @escaping Check) {
    registrar.access(self, keyPath: \.[member: keyPath])
    let needsSubscription = armed.withLock { armed -> Bool in
      if !armed.checks.contains(where: { $0.key == keyPath }) {
        armed.checks.append((keyPath, check))
      }
      return armed.subscription == nil
    }
    guard needsSubscription else { return }
    // Held strongly: the store's core keeps this closure only while the
    // subscription lasts, and this object owns the subscription, not the core.
    guard let subscription = subscribe({ state in self.stateDidChange(state) }) else {
      return
    }
    let duplicate = armed.withLock { armed -> StoreSubscription? in
      if armed.subscription == nil {
        armed.subscription = subscription
        return nil
      }
      return subscription
    }
    duplicate?.cancel()
  }

  @inlinable
  func stateDidChange(_ state: State) {
    let (fired, idle) = armed.withLock { armed -> ([SendableKeyPath], StoreSubscription?) in
      var fired: [SendableKeyPath] = []
      var index = 0
      while index < armed.checks.count {
        if armed.checks[index].changed(state) {
          fired.append(armed.checks[index].key)
          armed.checks.swapAt(index, armed.checks.count - 1)
          armed.checks.removeLast()
        } else {
          index += 1
        }
      }
      // Nothing left to watch: stop following the store, so that a store
      // whose state was read once outside any observer commits at full speed.
      guard armed.checks.isEmpty else { return (fired, nil) }
      defer { armed.subscription = nil }
      return (fired, armed.subscription)
    }
    idle?.cancel()
    for keyPath in fired {
      registrar.withMutation(of: self, keyPath: \.[member: keyPath]) {}
    }
  }
}

extension StateObservation {
  /// Registers a read of `keyPath` that returned `value`.
  @inlinable
  func track<Value: Equatable & Sendable>(_ keyPath: KeyPath<State, Value>, value: Value) {
    let key = SendableKeyPath(keyPath)
    if let offset = MemoryLayout<State>.offset(of: keyPath) {
      // A stored property: compare it in place, with no key path projection.
      arm(key) { state in
        withUnsafeBytes(of: state) { $0.load(fromByteOffset: offset, as: Value.self) } != value
      }
    } else {
      // Key paths are immutable once formed; reading through one from any thread is safe.
      nonisolated(unsafe) let keyPath = keyPath
      arm(key) { state in state[keyPath: keyPath] != value }
    }
  }

  /// Registers a read of the whole state.
  @inlinable
  func trackWhole(_ value: State) where State: Equatable {
    arm(wholeState) { state in state != value }
  }

  /// Registers a read of a value that cannot be kept for comparison: any
  /// commit that writes something invalidates it.
  @inlinable
  func trackUncomparable<Value>(_ keyPath: KeyPath<State, Value>) {
    arm(SendableKeyPath(keyPath)) { _ in true }
  }
}
