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
  @usableFromInline let keyPath: KeyPath<DependencyValues, Value> & Sendable
  @usableFromInline let site: DependencySite

  /// Names the dependency to read.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's property of `DependencyValues`.
  ///   - fileID: Where it is used, for a test that fails for want of a
  ///     test value; leave the default.
  ///   - filePath: Likewise.
  ///   - line: Likewise.
  ///   - column: Likewise.
  public init(
    _ keyPath: KeyPath<DependencyValues, Value> & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.keyPath = keyPath
    site = DependencySite(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The dependency's value in effect now.
  public var wrappedValue: Value {
    DependencyValues.current.read(keyPath, at: site)
  }
}

/// Where a dependency is used: what a test failure for a missing test
/// value points at.
@usableFromInline
struct DependencySite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
  /// How the use names the dependency (`\DependencyValues.apiClient`).
  var name: String = ""

  /// The use being resolved now, for the report of a missing test value.
  @TaskLocal static var current: DependencySite?
}

extension DependencyValues {
  /// Reads `keyPath`, telling a test failure where.
  @usableFromInline
  func read<Value>(_ keyPath: KeyPath<DependencyValues, Value>, at site: DependencySite) -> Value {
    guard context == .test else { return self[keyPath: keyPath] }
    var site = site
    site.name = "\(keyPath)"
    return DependencySite.$current.withValue(site) { self[keyPath: keyPath] }
  }
}
