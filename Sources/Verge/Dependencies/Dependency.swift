#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Bionic)
  import Bionic
#endif
import Synchronization
import VergeThreadLocal

/// Reads a dependency in a reducer, an effect or any code a store runs:
/// the value of the store that is reducing (see `DependencyValues.current`).
///
/// ```swift
/// struct GalleryFeature: ActionReducer {
///   @Dependency(\.apiClient) var apiClient
///   // reduce(into:action:) uses apiClient, and so do its effects
/// }
/// ```
///
/// The value is read at each use, not when the reducer is made, so one
/// reducer serves stores with different values; an effect that captures
/// `apiClient` reads it when it runs, as the store that started it sees it.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  /// Reads the dependency: the key path the caller wrote, which Swift
  /// turns into a function where it is written, so a read does not walk a
  /// key path at run time.
  @usableFromInline let get: @Sendable (DependencyValues) -> Value
  /// Where the wrapper is declared, made once with it, and the key its
  /// property reads once known: a read passes one reference.
  @usableFromInline let site: DependencySite

  /// Names the dependency to read.
  ///
  /// A property that reads one key and returns its value as it is (the
  /// form `DependencyKey` shows) is, from the second read on, read by its
  /// key without calling the property. A property that computes its value
  /// (from several keys, or a member of one, as `\.date.now`) is called at
  /// every read. So is one that changes its one key's value, when the
  /// change shows at the second read, where the key is looked for; a change
  /// that leaves that value as it was (clamping a value already in range)
  /// goes unseen, and later reads return the key's value unchanged: compute
  /// such a change where the value is used.
  ///
  /// - Parameters:
  ///   - get: The dependency's property of `DependencyValues`, written as
  ///     a key path (`\.apiClient`).
  ///   - fileID: Where it is used, for a test that fails for want of a
  ///     test value; leave the default.
  ///   - filePath: Likewise.
  ///   - line: Likewise.
  ///   - column: Likewise.
  public init(
    _ get: @escaping @Sendable (DependencyValues) -> Value,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.get = get
    site = DependencySite(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The dependency's value in effect now.
  ///
  /// - Complexity: Inside a reduction, once the property's key is known, a
  ///   few loads and a lock-free lookup of the value by its key; elsewhere
  ///   a task-local read and a call of the property besides.
  public var wrappedValue: Value {
    @inlinable @inline(__always) get {
      // The common case, inlined where the reducer reads it: a store's
      // reduction, with no frame of `withDependencies` over it, a property
      // whose key is known, and a value kept. Everything else stays out of
      // line, so the reduction saves no registers for paths it does not
      // take. A value found by its key needs no site even in a test: only
      // resolving a default reports a missing test value.
      if let raw = verge_thread_marks_get() {
        let marks = raw.assumingMemoryBound(to: ThreadMarks.self)
        if let core = marks.pointee.closureCore, marks.pointee.dependencyFrame == nil {
          // Not yet known: a marker no key matches.
          let key = site.key.load(ordering: .relaxed)
          // Borrowed in place: a copy of the values would retain what they
          // hold. A function forced inline, where a closure with the lookup's
          // loops would stay a call.
          @inline(__always) func find(in carrier: DependencyCarrier) -> Value? {
            carrier.lookup.value(ofKey: key, as: Value.self)
          }
          if let value = Unmanaged<DependencyCarrier>.fromOpaque(core)._withUnsafeGuaranteedRef(find) {
            return value
          }
        }
      }
      return readOutOfLine()
    }
  }

  /// `wrappedValue` in every other case.
  @inlinable @inline(never)
  func readOutOfLine() -> Value {
    DependencyValues.readCurrent(self)
  }
}

/// Where a dependency is used: what a test failure for a missing test
/// value points at, and the key the property reads once it is known. A
/// class, made once per `@Dependency`: a read carries one reference.
@usableFromInline
final class DependencySite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
  /// The key the property reads, as the bits of its `ObjectIdentifier`
  /// (an address, so never below 8), or what is known so far:
  /// `unread`, `readOnce` or `computed`.
  @usableFromInline let key = Atomic<UInt>(DependencySite.unread)

  /// Not read yet.
  @usableFromInline static let unread: UInt = 0
  /// Read once: the next read finds the key (a `@Dependency` declared in
  /// a function body is made at each call and usually read once; it is
  /// not worth finding the key of).
  @usableFromInline static let readOnce: UInt = 2
  /// The property does not return one key's value as it is: it is called
  /// at every read.
  @usableFromInline static let computed: UInt = 4

  @usableFromInline
  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The use being resolved now, for the report of a missing test value.
  @TaskLocal static var current: DependencySite?
}

extension DependencyValues {
  /// Reads `dependency` from these values: by its key when the key is
  /// known and its value kept, otherwise out of line.
  @inlinable
  func read<Value>(_ dependency: Dependency<Value>) -> Value {
    let key = dependency.site.key.load(ordering: .relaxed)
    if let value = storage.value(ofKey: key, as: Value.self) { return value }
    return readSlowly(dependency, key: key)
  }

  /// `read(_:)` when the value is not found by its key: a use read for the
  /// first time, the second read (which finds the key), a property that
  /// computes its value, or a default not resolved yet.
  @usableFromInline
  func readSlowly<Value>(_ dependency: Dependency<Value>, key: UInt) -> Value {
    switch key {
    case DependencySite.unread:
      _ = dependency.site.key.compareExchange(
        expected: DependencySite.unread, desired: DependencySite.readOnce, ordering: .relaxed)
      return call(dependency)
    case DependencySite.readOnce:
      return findKey(of: dependency)
    default:
      return call(dependency)
    }
  }

  /// Calls the property `dependency` reads, telling a test failure where.
  func call<Value>(_ dependency: Dependency<Value>) -> Value {
    guard context == .test else { return dependency.get(self) }
    return DependencySite.$current.withValue(dependency.site) { dependency.get(self) }
  }

  /// Calls the property `dependency` reads on values that note the keys it
  /// reads and read them from `self`, and records what later reads do: use
  /// the key, when the property read that one key alone, of the type it
  /// returns, and returned its value unchanged; call the property
  /// otherwise.
  func findKey<Value>(of dependency: Dependency<Value>) -> Value {
    let recorder = KeyRecorder(source: storage)
    let recording = DependencyValues(
      storage: Storage(overrides: [], defaults: ResolvedDefaults(), context: context, recorder: recorder))
    let value = recording.call(dependency)
    var found = DependencySite.computed
    if let only = recorder.onlyKey, only.valueType == ObjectIdentifier(Value.self),
      let kept = storage.value(ofKey: only.key, as: Value.self), hasSameRepresentation(value, kept)
    {
      found = only.key
    }
    // Threads finding it at once found the same, but the first answer stays.
    _ = dependency.site.key.compareExchange(expected: DependencySite.readOnce, desired: found, ordering: .relaxed)
    return value
  }
}

/// Whether `first` and `second` are the same bytes: copied into zeroed
/// memory, so that bytes a copy leaves unwritten (an existential's unused
/// buffer, padding) compare equal.
func hasSameRepresentation<Value>(_ first: Value, _ second: Value) -> Bool {
  let size = MemoryLayout<Value>.size
  guard size > 0 else { return true }
  func zeroedCopy(of value: Value) -> UnsafeMutableRawPointer {
    let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Value>.alignment)
    memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    memory.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
    return memory
  }
  let firstCopy = zeroedCopy(of: first)
  let secondCopy = zeroedCopy(of: second)
  defer {
    for copy in [firstCopy, secondCopy] {
      copy.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
      copy.deallocate()
    }
  }
  return memcmp(firstCopy, secondCopy, size) == 0
}

/// Notes the keys a property of `DependencyValues` reads, for
/// `findKey(of:)`, and reads them from the values it stands in for.
final class KeyRecorder: Sendable {
  /// The values read.
  let source: DependencyValues.Storage
  /// The keys read, as the bits of their identifiers, with their values'
  /// types.
  private let keys = SharedLock<[(key: UInt, valueType: ObjectIdentifier)]>([])

  init(source: DependencyValues.Storage) {
    self.source = source
  }

  /// The one key read, if exactly one was (however often).
  var onlyKey: (key: UInt, valueType: ObjectIdentifier)? {
    keys.withLock { keys in
      guard let first = keys.first, keys.allSatisfy({ $0.key == first.key }) else { return nil }
      return first
    }
  }

  /// Notes a read of `key` and reads it from `source`.
  func read<Key: DependencyKey>(_ key: Key.Type) -> Key.Value {
    keys.withLock { $0.append((UInt(bitPattern: ObjectIdentifier(key)), ObjectIdentifier(Key.Value.self))) }
    return DependencyValues(storage: source)[key]
  }
}
