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
  /// The overridden values, by key; few, so a list.
  @usableFromInline var overrides: [Override]
  /// The defaults resolved so far, shared by the copies.
  @usableFromInline var defaults: ResolvedDefaults
  /// Which of a key's values stand in when it is not overridden.
  public var context: DependencyContext {
    didSet {
      if context != oldValue { defaults = ResolvedDefaults() }
    }
  }

  /// Values with nothing overridden, in the process's context: `test`
  /// when XCTest or Swift Testing runs in the process, `preview` in an
  /// Xcode preview, `live` otherwise.
  public init() {
    overrides = []
    context = DependencyContext.process
    defaults = ResolvedDefaults()
  }

  /// The value of the dependency `key` names.
  ///
  /// Use it in the property that extends `DependencyValues` with a
  /// dependency; elsewhere read that property.
  ///
  /// - Parameter key: The dependency's key type.
  /// - Complexity: O(overridden values), plus a short lock the first time
  ///   a default is read.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    @inlinable get {
      let id = ObjectIdentifier(key)
      for entry in overrides where entry.id == id {
        return unsafeDowncast(entry.box, to: DependencyBox<Key.Value>.self).value
      }
      return defaults.value(of: key, in: context)
    }
    set {
      let box = DependencyBox(newValue)
      let id = ObjectIdentifier(key)
      if let index = overrides.firstIndex(where: { $0.id == id }) {
        overrides[index].box = box
      } else {
        overrides.append(Override(id: id, box: box))
      }
    }
  }

  /// One overridden value.
  @usableFromInline
  struct Override: Sendable {
    @usableFromInline let id: ObjectIdentifier
    @usableFromInline var box: AnyDependencyBox
  }

  /// `self` with `update` applied.
  func updated(_ update: (inout DependencyValues) throws -> Void) rethrows -> DependencyValues {
    var values = self
    try update(&values)
    return values
  }
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
@usableFromInline
final class ResolvedDefaults: Sendable {
  /// A list rather than a dictionary: an app has a few dozen
  /// dependencies at most, and comparing identifiers costs less than
  /// hashing one.
  @usableFromInline let resolved = LockedBox<[DependencyValues.Override]>([])

  init() {}

  /// The default value of `key` in `context`, resolved now if it was not.
  @inlinable
  func value<Key: DependencyKey>(of key: Key.Type, in context: DependencyContext) -> Key.Value {
    let id = ObjectIdentifier(key)
    // The value is taken out under the lock, and the list walked by index:
    // neither the box nor the list's storage is retained on the way.
    let found = resolved.withLock { resolved -> Key.Value? in
      for index in resolved.indices where resolved[index].id == id {
        return unsafeDowncast(resolved[index].box, to: DependencyBox<Key.Value>.self).value
      }
      return nil
    }
    if let found { return found }
    return resolve(key, in: context)
  }

  /// Resolves the default value of `key` in `context` and keeps it.
  @usableFromInline
  func resolve<Key: DependencyKey>(_ key: Key.Type, in context: DependencyContext) -> Key.Value {
    let id = ObjectIdentifier(key)
    // Resolved outside the lock: a default may read other dependencies.
    let value: Key.Value
    switch context {
    case .live:
      value = Key.liveValue
    case .preview:
      value = Key.previewValue
    case .test:
      let (resolvedValue, isMissing) = MissingTestValue.resolve { Key.testValue }
      value = resolvedValue
      if isMissing { DependencyIssue.reportMissingTestValue(Key.self) }
    }
    let box = resolved.withLock { resolved -> AnyDependencyBox in
      for entry in resolved where entry.id == id { return entry.box }
      let box = DependencyBox(value)
      resolved.append(DependencyValues.Override(id: id, box: box))
      return box
    }
    return unsafeDowncast(box, to: DependencyBox<Key.Value>.self).value
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
  // Sendable: one `let` of a Sendable type.
  /// The store's values; `nil` for a derived value's core.
  @usableFromInline final let dependencies: DependencyValues?

  @usableFromInline init(dependencies: DependencyValues?) {
    self.dependencies = dependencies
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

  /// Reads a dependency with `get` from the values in effect, without
  /// copying them (a copy retains what they hold) and without retaining
  /// the store's core, which weak references make costly to retain.
  @inlinable
  static func readCurrent<Value>(_ get: (DependencyValues) -> Value, at site: DependencySite) -> Value {
    if let raw = verge_thread_marks_get() {
      let marks = raw.assumingMemoryBound(to: ThreadMarks.self)
      if let core = marks.pointee.closureCore {
        if let frame = marks.pointee.dependencyFrame {
          let frame = frame.assumingMemoryBound(to: DependencyFrame.self)
          if frame.pointee.core == core { return frame.pointee.values.read(get, at: site) }
        }
        let carrier = Unmanaged<DependencyCarrier>.fromOpaque(core)
        if let value = carrier._withUnsafeGuaranteedRef({ $0.dependencies?.read(get, at: site) }) {
          return value
        }
      }
    }
    return (bound ?? DependencyValues()).read(get, at: site)
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
