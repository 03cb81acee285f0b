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
  /// Where the wrapper is declared, made once with it: a read passes one
  /// reference, which only a test's report of a missing value opens.
  @usableFromInline let site: DependencySite

  /// Names the dependency to read.
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
  /// - Complexity: Inside a reduction outside a test, a few loads, a call
  ///   of the dependency's property and a lock-free lookup of the value;
  ///   elsewhere a task-local read besides.
  @inlinable
  public var wrappedValue: Value {
    // The common case, inlined where the reducer reads it: a store's
    // reduction, with no frame of `withDependencies` over it, outside a
    // test. Everything else (and the site, which only a test's report
    // needs) stays out of line, so the reduction saves no registers for
    // paths it does not take.
    if let raw = verge_thread_marks_get() {
      let marks = raw.assumingMemoryBound(to: ThreadMarks.self)
      if let core = marks.pointee.closureCore, marks.pointee.dependencyFrame == nil {
        // Borrowed in place: a copy of the values would retain what they
        // hold.
        let carrier = Unmanaged<DependencyCarrier>.fromOpaque(core)
        if let value = carrier._withUnsafeGuaranteedRef({ $0.dependencies?.readOutsideTest(get) }) {
          return value
        }
      }
    }
    return readOutOfLine()
  }

  /// `wrappedValue` in every other case.
  @inlinable @inline(never)
  func readOutOfLine() -> Value {
    DependencyValues.readCurrent(get, at: site)
  }
}

/// Where a dependency is used: what a test failure for a missing test
/// value points at. A class, made once per `@Dependency`: a read carries
/// one reference instead of the four parts, which only a report reads.
@usableFromInline
final class DependencySite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

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
  /// Reads a dependency with `get`, telling a test failure where.
  @inlinable
  func read<Value>(_ get: (DependencyValues) -> Value, at site: DependencySite) -> Value {
    guard context == .test else { return get(self) }
    return readInTest(get, at: site)
  }

  /// Reads a dependency with `get`, or `nil` in a test (where a read must
  /// know its site).
  @inlinable
  func readOutsideTest<Value>(_ get: (DependencyValues) -> Value) -> Value? {
    context == .test ? nil : get(self)
  }

  /// `read(_:at:)` in a test, where a missing test value is reported.
  @usableFromInline
  func readInTest<Value>(_ get: (DependencyValues) -> Value, at site: DependencySite) -> Value {
    DependencySite.$current.withValue(site) { get(self) }
  }
}
