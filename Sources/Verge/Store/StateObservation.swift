import Observation
import Synchronization

/// Connects reads through `store.state` with Swift Observation.
///
/// A read inside `withObservationTracking` (or a SwiftUI body) registers an
/// access on this object (the subject the Observation machinery sees) under
/// a key path that stands for the state's key path, and arms a check that
/// remembers the value read. When a commit changes that value, the check
/// fires `withMutation` for that key path alone and disarms; the next read
/// arms it again. So a reader is invalidated only by commits that change
/// what it read, and the store keeps just the small values that were read,
/// never a whole previous state.
///
/// A read outside any observer arms nothing and keeps nothing: it costs the
/// read and one look at whether the calling thread is collecting accesses
/// (see `isTracking`).
@usableFromInline
final class StateObservation<State: Sendable>: Observable, Sendable {
  @usableFromInline typealias Check = @Sendable (State) -> Bool

  @usableFromInline
  struct Armed: Sendable {
    /// One check per key path read, shared by every reader of this store
    /// that read it: as many as the rows on screen, so a read that arms
    /// finds its key path by hash, not by comparing it with every other.
    @usableFromInline var checks: [SendableKeyPath: Check] = [:]
    @usableFromInline var subscription: StoreSubscription?

    @usableFromInline
    init() {}
  }

  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline let armed = LockedBox(Armed())
  @usableFromInline let subscribe: @Sendable (@escaping @Sendable (State) -> Void) -> StoreSubscription?
  /// Counts the hashes of `probeKey`; see `ObservationProbe`.
  @usableFromInline let probe: ObservationProbe
  /// The key path whose access reveals whether the calling thread is
  /// tracked, formed once. Key paths are immutable once formed; reading
  /// through one from any thread is safe.
  @usableFromInline nonisolated(unsafe) let probeKey: KeyPath<StateObservation, Void>

  /// - Parameter subscribe: Registers a receiver of every state change of
  ///   the store, without a first delivery; `nil` once the store is gone.
  @usableFromInline
  init(subscribe: @escaping @Sendable (@escaping @Sendable (State) -> Void) -> StoreSubscription?) {
    self.subscribe = subscribe
    wholeState = SendableKeyPath(\State.self)
    let probe = ObservationProbe()
    self.probe = probe
    probeKey = \StateObservation.[probe: probe]
  }

  /// The key for reads of the whole state, formed once: forming `\State.self`
  /// in generic code is a run-time call.
  @usableFromInline let wholeState: SendableKeyPath

  /// Stands for the state's key path in the registrar; never read.
  @usableFromInline
  subscript(member member: SendableKeyPath) -> Void { () }

  /// The probe's key in the registrar; never read, never mutated.
  @usableFromInline
  subscript(probe probe: ObservationProbe) -> Void { () }

  /// Whether the calling thread is inside `withObservationTracking` (or a
  /// SwiftUI body): only then does a read arm a check.
  ///
  /// - Complexity: O(1): two atomic loads and a thread-local read when the
  ///   thread is not tracked.
  @inlinable
  var isTracking: Bool {
    accessRevealsTracking() || !observationAccessIsDetectable
  }

  /// Registers an access to `probeKey` and tells whether the registrar
  /// recorded it (it hashed the key path, and so the probe).
  @inlinable
  func accessRevealsTracking() -> Bool {
    let before = probe.hashes
    registrar.access(self, keyPath: probeKey)
    return probe.hashes != before
  }

  @inlinable
  func arm(_ keyPath: SendableKeyPath, check: @escaping Check) {
    registrar.access(self, keyPath: \.[member: keyPath])
    let needsSubscription = armed.withLock { armed -> Bool in
      if armed.checks[keyPath] == nil {
        armed.checks[keyPath] = check
      }
      return armed.subscription == nil
    }
    guard needsSubscription else { return }
    // Held weakly: the store owns this object, and this object owns the
    // subscription, whose subscriber (kept by the store's core) holds this
    // closure; a strong capture would keep this object, its checks and the
    // values they remember alive after the store is gone.
    guard let subscription = subscribe({ [weak self] state in self?.stateDidChange(state) }) else {
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
      for (key, changed) in armed.checks where changed(state) {
        fired.append(key)
      }
      for key in fired {
        armed.checks[key] = nil
      }
      // Nothing left to watch: stop following the store, so that a store
      // whose readers have all been invalidated commits at full speed.
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
  /// Registers a read of `keyPath` that returned `value`, when the calling
  /// thread is tracked.
  @inlinable
  func track<Value: Equatable & Sendable>(_ keyPath: KeyPath<State, Value>, value: Value) {
    guard isTracking else { return }
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

  /// Registers a read of the whole state, when the calling thread is tracked.
  @inlinable
  func trackWhole(_ value: State) where State: Equatable {
    guard isTracking else { return }
    arm(wholeState) { state in state != value }
  }

  /// Registers a read of a value that cannot be kept for comparison, when
  /// the calling thread is tracked: any commit that writes something
  /// invalidates it.
  @inlinable
  func trackUncomparable<Value>(_ keyPath: KeyPath<State, Value>) {
    guard isTracking else { return }
    arm(SendableKeyPath(keyPath)) { _ in true }
  }
}

/// A key path argument that counts how often it is hashed, so that a store
/// can tell whether a read happens inside `withObservationTracking`.
///
/// Swift Observation has no public "is this thread tracked?" query, but
/// `ObservationRegistrar.access` records an access only while the calling
/// thread is collecting accesses, and it records it by inserting the key
/// path into a set, which hashes the key path and so its arguments. The
/// count moving across an `access` call therefore means the thread is
/// tracked. Hashes from elsewhere (a tracking installing or removing its
/// observers on another thread) can only make an untracked read look
/// tracked, never the reverse; that costs one armed check, as every read
/// cost before. `observationAccessIsDetectable` checks the premise once.
@usableFromInline
struct ObservationProbe: Hashable, Sendable {
  @usableFromInline
  final class Counter: Sendable {
    @usableFromInline let hashes = Atomic<UInt>(0)

    @usableFromInline
    init() {}
  }

  @usableFromInline let counter = Counter()

  @usableFromInline
  init() {}

  /// How often this probe was hashed so far.
  @inlinable
  var hashes: UInt {
    counter.hashes.load(ordering: .relaxed)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    counter.hashes.wrappingAdd(1, ordering: .relaxed)
    hasher.combine(ObjectIdentifier(counter))
  }

  @usableFromInline
  static func == (lhs: ObservationProbe, rhs: ObservationProbe) -> Bool {
    lhs.counter === rhs.counter
  }
}

/// Whether this Observation implementation records accesses as
/// `ObservationProbe` expects: a probe access is seen inside
/// `withObservationTracking`. Checked once; if it ever fails, every read arms
/// its check, as if tracked: correct, only slower.
@usableFromInline
let observationAccessIsDetectable = probeSeesTracking()

/// Makes a probe access inside `withObservationTracking` and tells whether
/// the probe saw it. Correct also when called inside an outer tracking (the
/// first read of a process is often a SwiftUI body): the inner tracking
/// collects the access before handing it on to the outer one.
func probeSeesTracking() -> Bool {
  let subject = StateObservation<Int> { _ in nil }
  var seen = false
  withObservationTracking {
    seen = subject.accessRevealsTracking()
  } onChange: {}
  return seen
}
