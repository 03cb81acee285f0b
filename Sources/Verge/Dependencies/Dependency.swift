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
///
/// Name the dependency by its property (`\.apiClient`) or by its key type
/// (`APIClientKey.self`): both read the same value in the same places. A
/// property is called at every read, whatever it computes; a key is read
/// directly, which costs less.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  /// Reads the dependency: the key path the caller wrote, which Swift
  /// turns into a function where it is written, so a read does not walk a
  /// key path at run time; for a key, a function that reads the key.
  @usableFromInline let get: @Sendable (DependencyValues) -> Value
  /// Where the wrapper is declared, and the key it reads when named by
  /// one: made once with it, so a read passes one reference.
  @usableFromInline let site: DependencySite

  /// Names the dependency to read by its property of `DependencyValues`.
  ///
  /// Every read calls the property, so it returns what the property
  /// returns, however it computes it.
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
    site = DependencySite(
      key: DependencySite.noKey, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Names the dependency to read by its key type: a read finds the key's
  /// value directly, without calling a property of `DependencyValues`.
  ///
  /// ```swift
  /// struct GalleryFeature: ActionReducer {
  ///   @Dependency(APIClientKey.self) var apiClient
  ///   // reads the value `$0.apiClient = …` set, or the key's default
  /// }
  /// ```
  ///
  /// The value is the one the key holds where it is read: the store that
  /// is reducing, its effects, `withDependencies`, and a test's values,
  /// as with the property form. Use it where a dependency is read often;
  /// a property that computes something from its key is not called, so
  /// read such a dependency by its property.
  ///
  /// - Parameters:
  ///   - key: The dependency's key type.
  ///   - fileID: Where it is used, for a test that fails for want of a
  ///     test value; leave the default.
  ///   - filePath: Likewise.
  ///   - line: Likewise.
  ///   - column: Likewise.
  public init<Key: DependencyKey>(
    _ key: Key.Type,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Key.Value == Value {
    get = { $0[Key.self] }
    site = DependencySite(
      key: UInt(bitPattern: ObjectIdentifier(key)), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// The dependency's value in effect now.
  ///
  /// - Complexity: Inside a reduction: a few loads, then, named by a key, a
  ///   lock-free lookup of the value by its key, or, named by a property,
  ///   one call of the property. Elsewhere a task-local read besides.
  public var wrappedValue: Value {
    @inlinable @inline(__always) get {
      // The common case, inlined where the reducer reads it: the store
      // that is reducing, with no frame of `withDependencies` over it. The
      // thread's marks and the store are found once, for either form; each
      // form then runs only its own code. Everything else stays out of
      // line, so the reduction saves no registers for paths it does not
      // take.
      if let raw = verge_thread_marks_get() {
        let marks = raw.assumingMemoryBound(to: ThreadMarks.self)
        if let core = marks.pointee.closureCore, marks.pointee.dependencyFrame == nil {
          let carrier = Unmanaged<DependencyCarrier>.fromOpaque(core)
          let key = site.key
          if key != DependencySite.noKey {
            // Borrowed in place: a copy of the values would retain what
            // they hold. A function forced inline, where a closure with the
            // lookup's loops would stay a call. A value found by its key
            // needs no site even in a test: only resolving a default
            // reports a missing test value.
            @inline(__always) func find(in carrier: DependencyCarrier) -> Value? {
              carrier.lookup.value(ofKey: key, as: Value.self)
            }
            // Scenario 15, read by key: 135 instructions per send → 327 with takeUnretainedValue().
            if let value = carrier._withUnsafeGuaranteedRef(find) { return value }
          } else {
            // The property's call on the store's values, out of line and
            // reached by a jump, so a read by key saves no registers for
            // it.
            return Self.readByProperty(self, in: carrier)
          }
        }
      }
      return readOutOfLine()
    }
  }

  /// `wrappedValue` of `dependency`, a wrapper that names a property,
  /// inside the reduction of `carrier`: the property's call on the store's
  /// values, borrowed (a copy would retain them). `propertyValues` is `nil`
  /// in a test, where a read must tell which use it is, and for a core
  /// without values, so one test sends both out of line.
  ///
  /// Static, with the wrapper first: the caller's registers already hold
  /// it where this function takes it.
  @inlinable @inline(never)
  static func readByProperty(_ dependency: Self, in carrier: Unmanaged<DependencyCarrier>) -> Value {
    // Borrowed through the optional: unwrapping it first would copy them.
    @inline(__always) func call(in carrier: DependencyCarrier) -> Value? {
      carrier.propertyValues?.applying(dependency.get)
    }
    // Scenario 15, read by property: 166 instructions per send → 366 with takeUnretainedValue().
    return carrier._withUnsafeGuaranteedRef(call) ?? dependency.readOutOfLine()
  }

  /// `wrappedValue` in every other case.
  @inlinable @inline(never)
  func readOutOfLine() -> Value {
    DependencyValues.readCurrent(self)
  }
}

/// Where a dependency is used: what a test failure for a missing test
/// value points at, and the key read when the wrapper names one. A class,
/// made once per `@Dependency`: a read carries one reference.
@usableFromInline
final class DependencySite: Sendable {
  /// The key read, as the bits of its `ObjectIdentifier` (an address, so
  /// never zero), or `noKey` when the wrapper names a property.
  @usableFromInline let key: UInt
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// `key` of a wrapper that names a property: no key's identifier, and
  /// not the end of a list of resolved defaults.
  @usableFromInline static let noKey: UInt = 0

  @usableFromInline
  init(key: UInt, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.key = key
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The use being resolved now, for the report of a missing test value.
  @TaskLocal static var current: DependencySite?
}

extension DependencyValues {
  /// Reads `dependency` from these values: by its key when it names one
  /// and the value is kept, otherwise by its function, telling a test
  /// failure where.
  @inlinable
  func read<Value>(_ dependency: Dependency<Value>) -> Value {
    let key = dependency.site.key
    if key != DependencySite.noKey, let value = storage.value(ofKey: key, as: Value.self) { return value }
    guard context == .test else { return dependency.get(self) }
    return readInTest(dependency)
  }

  /// `get` applied to these values, borrowed (a copy would retain them).
  @inlinable @inline(__always)
  func applying<Value>(_ get: (DependencyValues) -> Value) -> Value {
    get(self)
  }

  /// `read(_:)` in a test, where a missing test value is reported.
  @usableFromInline
  func readInTest<Value>(_ dependency: Dependency<Value>) -> Value {
    DependencySite.$current.withValue(dependency.site) { dependency.get(self) }
  }
}
