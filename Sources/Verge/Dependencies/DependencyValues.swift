import Synchronization
import VergeThreadLocal

/// The dependencies in effect: one value per `DependencyKey`, each the key's
/// default for the context (live, test or preview) unless overridden.
///
/// Extend it with one property per dependency (see `DependencyKey`), then
/// read them with `@Dependency(\.name)` in a reducer, or through a store's
/// `dependencies`. A store takes its values when it is made:
///
/// ```swift
/// let store = Store<Gallery, Never>(initialState: Gallery()) {
///   $0.apiClient = APIClient(fetchPhotos: { ["fake"] })
/// }
/// ```
///
/// Which values are in effect, `DependencyValues.current`:
/// - inside a store's reduction (an enum reducer's `reduce`, a method
///   reducer's mutation, a core store's commit closure): that store's;
/// - inside an effect or an async action: the values of the store whose
///   reduction started it, whatever thread it resumes on;
/// - elsewhere: those of the innermost `withDependencies`, or the defaults.
///
/// A value of `DependencyValues` is a plain value: copies share the
/// defaults already resolved (a test's `uuid` keeps counting across a
/// store's scopes and children), and an override changes the copy alone.
public struct DependencyValues: Sendable {
  /// The overrides, the defaults and the context, in one object that
  /// copies share: a read loads one reference, and a store keeps one.
  @usableFromInline var storage: Storage

  /// Which of a key's values stand in when it is not overridden.
  public var context: DependencyContext {
    get { storage.context }
    set {
      guard newValue != storage.context else { return }
      storage = Storage(overrides: storage.overrides, defaults: ResolvedDefaults(), context: newValue)
    }
  }

  /// Values with nothing overridden, in the process's context: `test`
  /// when XCTest or Swift Testing runs in the process, `preview` in an
  /// Xcode preview, `live` otherwise.
  public init() {
    storage = Storage(overrides: [], defaults: ResolvedDefaults(), context: DependencyContext.process)
  }

  /// Values that hold `storage`.
  init(storage: Storage) {
    self.storage = storage
  }

  /// The value of the dependency `key` names.
  ///
  /// Use it in the property that extends `DependencyValues` with a
  /// dependency; elsewhere read that property.
  ///
  /// - Parameter key: The dependency's key type.
  /// - Complexity: O(overridden values + defaults read so far), without a
  ///   lock; the first read of a default takes a short lock to keep it.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    @inlinable @inline(__always) get {
      // The found value is returned with no call on the way; the first
      // read of a default resolves it out of line.
      if let value = storage.value(of: ObjectIdentifier(key), as: Key.Value.self) { return value }
      return resolveDefault(key, of: storage)
    }
    set {
      let entry = Override(id: ObjectIdentifier(key), box: DependencyBox(newValue))
      var overrides = storage.overrides
      if let index = overrides.firstIndex(where: { $0.id == entry.id }) {
        overrides[index] = entry
      } else {
        overrides.append(entry)
      }
      storage = Storage(overrides: overrides, defaults: storage.defaults, context: storage.context)
    }
  }

  /// One value of a key: an overridden value, or a resolved default.
  @usableFromInline
  struct Override: Sendable {
    // The box first: a look-up that finds the key reads the box at the
    // address it compared near, with no offset to add before the loop.
    @usableFromInline let box: AnyDependencyBox
    @usableFromInline let id: ObjectIdentifier

    @usableFromInline init(id: ObjectIdentifier, box: AnyDependencyBox) {
      self.id = id
      self.box = box
    }
  }

  /// What a value of `DependencyValues` holds; never changed once made (a
  /// change to the values makes a new one).
  @usableFromInline
  final class Storage: Sendable {
    /// The overridden values, by key; few, so a list.
    @usableFromInline let overrides: [Override]
    /// The defaults resolved so far, shared by the copies and by values
    /// made from them by overriding.
    @usableFromInline let defaults: ResolvedDefaults
    /// Which of a key's values stand in when it is not overridden.
    @usableFromInline let context: DependencyContext

    init(overrides: [Override], defaults: ResolvedDefaults, context: DependencyContext) {
      self.overrides = overrides
      self.defaults = defaults
      self.context = context
    }

    /// Storage that keeps no value: what a derived value's core looks in.
    static let empty = Storage(overrides: [], defaults: ResolvedDefaults(), context: .live)

    /// The value kept for the key `id`, overridden or its resolved
    /// default; `nil` when its default is not resolved yet.
    @inlinable @inline(__always)
    func value<Value: Sendable>(of id: ObjectIdentifier, as type: Value.Type) -> Value? {
      value(ofKey: UInt(bitPattern: id), as: type)
    }

    /// The value kept for the key whose identifier has the bits `key`;
    /// `nil` when its default is not resolved yet, and for bits no key has.
    /// The value must be of the key's type.
    @inlinable @inline(__always)
    func value<Value: Sendable>(ofKey key: UInt, as type: Value.Type) -> Value? {
      // Walked by index: neither the list nor a box is retained on the way.
      let count = overrides.count
      if count > 0 {
        var index = 0
        repeat {
          if UInt(bitPattern: overrides[index].id) == key {
            return unsafeDowncast(overrides[index].box, to: DependencyBox<Value>.self).value
          }
          index &+= 1
        } while index < count
      }
      return defaults.value(ofKey: key, as: type)
    }
  }

  /// `self` with `update` applied.
  func updated(_ update: (inout DependencyValues) throws -> Void) rethrows -> DependencyValues {
    var values = self
    try update(&values)
    return values
  }
}

/// The default of `key` in `storage`'s context, resolved now if no other
/// read resolved it: out of line, and a free function, so a read that
/// finds its value saves no register for it.
@usableFromInline @inline(never)
func resolveDefault<Key: DependencyKey>(_ key: Key.Type, of storage: DependencyValues.Storage) -> Key.Value {
  return storage.defaults.resolve(key, in: storage.context)
}

/// Which of a key's values a store uses when nothing overrides it.
public enum DependencyContext: Sendable, Hashable {
  /// `liveValue`: a program.
  case live
  /// `testValue`: XCTest or Swift Testing runs in the process.
  case test
  /// `previewValue`: an Xcode preview.
  case preview

  /// The context of the running process, found once: `preview` when Xcode
  /// runs it for a preview, `test` when XCTest or Swift Testing is loaded,
  /// `live` otherwise.
  public static let process: DependencyContext = TestProcess.context
}

/// A value of some dependency, as one type whatever the value's type.
@usableFromInline
class AnyDependencyBox: @unchecked Sendable {
  // No stored property: Sendable by construction; the subclass's one
  // property is a `let` of a Sendable type.
  @usableFromInline init() {}
}

/// A value of a dependency of type `Value`.
@usableFromInline
final class DependencyBox<Value: Sendable>: AnyDependencyBox, @unchecked Sendable {
  // Sendable: one `let` of a Sendable type.
  @usableFromInline let value: Value

  @usableFromInline init(_ value: Value) {
    self.value = value
    super.init()
  }
}

/// The defaults of a set of values, resolved on first use and kept: a
/// store, its scopes and its children share them.
///
/// A read takes no lock: it walks a list that never changes once
/// published, up to the entry that ends it (so it loads no count). The
/// first read of a key resolves its default and publishes, under a lock, a
/// new list with it added; the old one is kept until `self` goes, so a
/// reader still walking it never sees it freed (for n defaults the lists
/// hold n²/2 entries of two words: a few kilobytes for a few dozen).
///
/// Each default is computed once: the first thread to need it computes it
/// holding that key's gate (not `lock`, so the computation may read other
/// dependencies, and other keys resolve meanwhile); threads needing the
/// same key wait at the gate, then read what it kept. A thread that holds a
/// store's lock (inside a commit closure) or is delivering does not wait:
/// the computing thread may need that store, so it computes the value
/// itself, and whichever value is kept first is the one every read gets. A
/// default that needs itself, on one thread (through these values or any
/// other's) or through threads waiting for each other, is a dependency
/// cycle, which stops the program naming the keys.
@usableFromInline
final class ResolvedDefaults: @unchecked Sendable {
  // Sendable: `entries` is an atomic, and a list it points to is written
  // whole before the releasing store that publishes it and never changed
  // after; the rest is changed only under `lock`.
  /// The address of the current list, ended by `Entry.end`: never zero
  /// (an address, where a pointer would be checked for `nil` at each
  /// read).
  @usableFromInline let entries: Atomic<UInt>
  /// Taken to add a default: how many the current list holds, the lists
  /// it replaced (freed with `self`), and the defaults being computed.
  let lock = LockedBox(Lists())

  /// A resolved default: its key, as the bits of its identifier, and its
  /// value.
  @usableFromInline
  struct Entry {
    // The box first: a look-up that finds the key reads the box at the
    // address it compared near.
    @usableFromInline let box: AnyDependencyBox
    @usableFromInline let key: UInt

    /// The key of the entry that ends a list: no key's identifier, and
    /// not `DependencySite.noKey`.
    @usableFromInline static let end: UInt = 1

    init(box: AnyDependencyBox, key: UInt) {
      self.box = box
      self.key = key
    }
  }

  /// The box of the entry that ends every list.
  private static let endBox = AnyDependencyBox()

  /// What `lock` guards.
  struct Lists: @unchecked Sendable {
    // Sendable: used only under the owner's lock; the lists are the
    // owner's memory, freed with it.
    /// How many defaults the current list holds, besides its end.
    var count = 0
    /// The lists replaced by longer ones, with their lengths (end included).
    var retired: [(list: UnsafeMutablePointer<Entry>, length: Int)] = []
    /// The defaults being computed, by key: the computing thread, the gate
    /// it holds until the value is kept, and the key's name.
    var computing: [ObjectIdentifier: (thread: UInt, gate: LockedBox<Void>, name: String)] = [:]
    /// The key each waiting thread waits for.
    var waiting: [UInt: ObjectIdentifier] = [:]
  }

  /// How many threads wait for the default of `key` to be computed.
  func waitingThreads<Key: DependencyKey>(for key: Key.Type) -> Int {
    let id = ObjectIdentifier(key)
    return lock.withLock { state in state.waiting.values.count { $0 == id } }
  }

  /// How many defaults are resolved.
  var resolvedCount: Int {
    lock.withLock { $0.count }
  }

  init() {
    let list = UnsafeMutablePointer<Entry>.allocate(capacity: 1)
    list.initialize(to: Entry(box: Self.endBox, key: Entry.end))
    entries = Atomic(UInt(bitPattern: list))
  }

  deinit {
    let current = list(at: entries.load(ordering: .relaxed))
    lock.withLock { state in
      current.deinitialize(count: state.count + 1)
      current.deallocate()
      for (list, length) in state.retired {
        list.deinitialize(count: length)
        list.deallocate()
      }
    }
  }

  /// The list at `address`, an address `entries` held.
  @inlinable @inline(__always)
  func list(at address: UInt) -> UnsafeMutablePointer<Entry> {
    UnsafeMutablePointer(bitPattern: address).unsafelyUnwrapped
  }

  /// The kept default of the key whose identifier has the bits `key`, as
  /// `Value`; `nil` when none is.
  @inlinable @inline(__always)
  func value<Value: Sendable>(ofKey key: UInt, as type: Value.Type) -> Value? {
    var entry = list(at: entries.load(ordering: .acquiring))
    while true {
      let found = entry.pointee.key
      if found == key {
        return unsafeDowncast(entry.pointee.box, to: DependencyBox<Value>.self).value
      }
      if found == Entry.end { return nil }
      entry += 1
    }
  }

  /// The default value of `key` in `context`: the kept one, or computed
  /// now and kept, once however many threads need it at once.
  @usableFromInline
  func resolve<Key: DependencyKey>(_ key: Key.Type, in context: DependencyContext) -> Key.Value {
    let id = ObjectIdentifier(key)
    let thread = ThreadIdentity.current
    while true {
      switch nextStep(for: id, named: { String(reflecting: key) }, on: thread) {
      case .kept(let box):
        return unsafeDowncast(box, to: DependencyBox<Key.Value>.self).value
      case .wait(let gate):
        // Held by the computing thread until the value is kept.
        gate.lock(as: thread)
        gate.unlock()
        lock.withLock { state in state.waiting[thread] = nil }
      case .compute(let gate):
        return computing(key) { keep(key, computed: compute(key, in: context), opening: gate) }
      case .computeAlone:
        return computing(key) { keep(key, computed: compute(key, in: context), opening: nil) }
      }
    }
  }

  /// Runs `body`, which computes the default of `key`, as the calling
  /// thread's innermost default: a default that needs itself meanwhile on
  /// this thread, through these values or any others, stops the program.
  private func computing<Key: DependencyKey>(_ key: Key.Type, _ body: () -> Key.Value) -> Key.Value {
    let marks = ThreadIdentity.marks(key: ThreadIdentity.marksKey)
    marks.pointee.computingDefaults.append(key)
    defer { marks.pointee.computingDefaults.removeLast() }
    return body()
  }

  /// Stops the program if the calling thread is computing the default of
  /// `id` already (in any values): computing it again would never end.
  private static func checkNotComputing(_ id: ObjectIdentifier, on marks: UnsafeMutablePointer<ThreadMarks>) {
    let chain = marks.pointee.computingDefaults
    guard let first = chain.firstIndex(where: { ObjectIdentifier($0) == id }) else { return }
    let names = chain[first...].map { String(reflecting: $0) }
    Misuse.dependencyCycle(names + [names[0]])
  }

  /// What a thread that needs the default of `id` does next.
  private enum Step {
    /// Reads the kept value.
    case kept(AnyDependencyBox)
    /// Waits for the thread computing it at this gate, then looks again.
    case wait(LockedBox<Void>)
    /// Computes it, holding this gate, which it took.
    case compute(LockedBox<Void>)
    /// Computes it without waiting for the thread that computes it: the
    /// calling thread holds a store's lock, which that thread may need.
    case computeAlone
  }

  /// Decides, under `lock`, what `thread` does to get the default of `id`;
  /// stops the program on a dependency cycle.
  private func nextStep(for id: ObjectIdentifier, named name: () -> String, on thread: UInt) -> Step {
    let marks = ThreadIdentity.marks(key: ThreadIdentity.marksKey)
    return lock.withLock { state in
      let current = list(at: entries.load(ordering: .relaxed))
      let key = UInt(bitPattern: id)
      if let index = (0..<state.count).first(where: { current[$0].key == key }) {
        return .kept(current[index].box)
      }
      Self.checkNotComputing(id, on: marks)
      guard let computing = state.computing[id] else {
        let gate = LockedBox(())
        gate.lock(as: thread)
        state.computing[id] = (thread, gate, name())
        return .compute(gate)
      }
      // A thread that holds a store's lock or delivers must not wait: the
      // computing thread may commit to that store, or wait for the
      // delivery, and neither would ever end.
      if marks.pointee.closureCore != nil || marks.pointee.word != 0 {
        return .computeAlone
      }
      // The chain of threads each waits for: back to this one is a cycle.
      var chain = [computing.name]
      var holder = computing.thread
      while true {
        if holder == thread { Misuse.dependencyCycle(chain + [computing.name]) }
        guard let next = state.waiting[holder].flatMap({ state.computing[$0] }), chain.count <= state.computing.count
        else { break }
        chain.append(next.name)
        holder = next.thread
      }
      state.waiting[thread] = id
      return .wait(computing.gate)
    }
  }

  /// Computes the default of `key` in `context`, outside `lock` (a
  /// default may read other dependencies), and tells whether the key has
  /// no test value.
  private func compute<Key: DependencyKey>(
    _ key: Key.Type, in context: DependencyContext
  ) -> (value: Key.Value, isMissing: Bool) {
    switch context {
    case .live:
      return (Key.liveValue, false)
    case .preview:
      return (Key.previewValue, false)
    case .test:
      return MissingTestValue.resolve { Key.testValue }
    }
  }

  /// Keeps `computed`, the default of `key`, unless a thread that did not
  /// wait kept one first, and opens `gate`, the key's gate if this thread
  /// holds it. Returns the kept value; reports a missing test value when
  /// this thread's value is the one kept.
  private func keep<Key: DependencyKey>(
    _ key: Key.Type, computed: (value: Key.Value, isMissing: Bool), opening gate: LockedBox<Void>?
  ) -> Key.Value {
    let id = ObjectIdentifier(key)
    let kept: AnyDependencyBox? = lock.withLock { state in
      if gate != nil { state.computing[id] = nil }
      let current = list(at: entries.load(ordering: .relaxed))
      let bits = UInt(bitPattern: id)
      if let index = (0..<state.count).first(where: { current[$0].key == bits }) {
        return current[index].box
      }
      let list = UnsafeMutablePointer<Entry>.allocate(capacity: state.count + 2)
      list.initialize(from: current, count: state.count)
      (list + state.count).initialize(to: Entry(box: DependencyBox(computed.value), key: bits))
      (list + state.count + 1).initialize(to: Entry(box: Self.endBox, key: Entry.end))
      entries.store(UInt(bitPattern: list), ordering: .releasing)
      state.retired.append((current, state.count + 1))
      state.count += 1
      return nil
    }
    gate?.unlock()
    if let kept { return unsafeDowncast(kept, to: DependencyBox<Key.Value>.self).value }
    if computed.isMissing { DependencyIssue.reportMissingTestValue(Key.self) }
    return computed.value
  }
}

// MARK: - The values in effect

/// Dependency values that override, for the time of a call on a thread
/// inside a commit closure, those of the core whose closure it is: kept on
/// the caller's stack, found through the thread's marks.
@usableFromInline
struct DependencyFrame {
  /// The core whose commit closure the frame was made in; the frame
  /// applies to that closure only (not to a commit to another store made
  /// inside it).
  @usableFromInline let core: UnsafeRawPointer
  @usableFromInline let values: DependencyValues
}

/// The part of a store's core that dependencies are read from: not
/// generic, so the core a thread is committing to (which its marks know
/// only by address) can be asked without knowing its state's type.
@usableFromInline
class DependencyCarrier: @unchecked Sendable {
  // Sendable: three `let`s of Sendable types.
  /// The store's values; `nil` for a derived value's core.
  @usableFromInline final let dependencies: DependencyValues?
  /// Where a read looks for a kept value: the storage of `dependencies`,
  /// or one that keeps none, so the look-up needs no test for `nil`.
  @usableFromInline final let lookup: DependencyValues.Storage
  /// `dependencies` where a read may call a property on them directly:
  /// `nil` without values and in a test, where a read must tell which use
  /// it is (a missing test value is reported there).
  @usableFromInline final let propertyValues: DependencyValues?

  @usableFromInline init(dependencies: DependencyValues?) {
    self.dependencies = dependencies
    lookup = dependencies?.storage ?? DependencyValues.Storage.empty
    propertyValues = dependencies?.context == .test ? nil : dependencies
  }
}

extension DependencyValues {
  /// The values set by `withDependencies`, and those effects and async
  /// actions run with.
  @TaskLocal @usableFromInline static var bound: DependencyValues?

  /// The values in effect on the calling thread or task; see
  /// `DependencyValues` for which those are.
  ///
  /// - Complexity: Inside a reduction, a few loads; elsewhere a task-local
  ///   read.
  public static var current: DependencyValues {
    if let reducing = reducing { return reducing }
    return bound ?? DependencyValues()
  }

  /// Reads `dependency` from the values in effect, without copying them
  /// (a copy retains what they hold) and without retaining the store's
  /// core, which weak references make costly to retain.
  @inlinable
  static func readCurrent<Value>(_ dependency: Dependency<Value>) -> Value {
    if let raw = verge_thread_marks_get() {
      let marks = raw.assumingMemoryBound(to: ThreadMarks.self)
      if let core = marks.pointee.closureCore {
        if let frame = marks.pointee.dependencyFrame {
          let frame = frame.assumingMemoryBound(to: DependencyFrame.self)
          if frame.pointee.core == core { return frame.pointee.values.read(dependency) }
        }
        let carrier = Unmanaged<DependencyCarrier>.fromOpaque(core)
        if let value = carrier.takeUnretainedValue().dependencies?.read(dependency) {
          return value
        }
      }
    }
    return (bound ?? DependencyValues()).read(dependency)
  }

  /// The values of the store whose commit closure (or reduction) the
  /// calling thread runs, with what a frame overrides; `nil` outside any.
  static var reducing: DependencyValues? {
    guard let raw = verge_thread_marks_get() else { return nil }
    let marks = raw.assumingMemoryBound(to: ThreadMarks.self)
    guard let core = marks.pointee.closureCore else { return nil }
    if let frame = marks.pointee.dependencyFrame {
      let frame = frame.assumingMemoryBound(to: DependencyFrame.self)
      if frame.pointee.core == core { return frame.pointee.values }
    }
    return Unmanaged<DependencyCarrier>.fromOpaque(core).takeUnretainedValue().dependencies
  }

  /// Runs `body` with `values` in effect, on this thread and in tasks it
  /// creates: inside a commit closure as a frame the reduction's reads
  /// see, and as the task-local values either way.
  package static func withValues<Result>(
    _ values: DependencyValues, _ body: () throws -> Result
  ) rethrows -> Result {
    let marks = ThreadIdentity.marks(key: ThreadIdentity.marksKey)
    guard let core = marks.pointee.closureCore else {
      return try $bound.withValue(values, operation: body)
    }
    var frame = DependencyFrame(core: core, values: values)
    return try withUnsafePointer(to: &frame) { pointer in
      let outer = marks.pointee.dependencyFrame
      marks.pointee.dependencyFrame = UnsafeRawPointer(pointer)
      defer { marks.pointee.dependencyFrame = outer }
      return try $bound.withValue(values, operation: body)
    }
  }

  /// Runs async `operation` with `values` in effect (for effects and async
  /// actions: the values of the store that started them).
  package static func withValues<Result>(
    _ values: DependencyValues,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
  ) async rethrows -> Result {
    try await $bound.withValue(values, operation: operation, isolation: isolation)
  }
}

/// Runs `operation` with the dependency values in effect changed by
/// `update`; for code outside any store (a store made inside takes these
/// values), and for a part of a reduction.
///
/// ```swift
/// let photos = try await withDependencies {
///   $0.apiClient = APIClient(fetchPhotos: { ["fake"] })
/// } operation: {
///   @Dependency(\.apiClient) var apiClient
///   return try await apiClient.fetchPhotos()
/// }
/// ```
///
/// - Parameters:
///   - update: Changes the values in effect.
///   - operation: Runs with the changed values.
/// - Returns: What `operation` returned.
/// - Throws: What `update` or `operation` threw.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> Result
) rethrows -> Result {
  let values = try DependencyValues.current.updated(update)
  return try DependencyValues.withValues(values, operation)
}

/// Runs async `operation` with the dependency values in effect changed by
/// `update`; tasks it creates inherit them.
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - update: Changes the values in effect.
///   - operation: Runs with the changed values.
/// - Returns: What `operation` returned.
/// - Throws: What `update` or `operation` threw.
public func withDependencies<Result>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> Result
) async rethrows -> Result {
  let values = try DependencyValues.current.updated(update)
  return try await DependencyValues.withValues(values, isolation: isolation, operation)
}
