/// Names a dependency — a service a feature uses, such as an API client —
/// and gives its values: the live one, and optionally one for tests and one
/// for previews.
///
/// ```swift
/// struct APIClient: Sendable {
///   var fetchPhotos: @Sendable () async throws -> [String]
/// }
///
/// enum APIClientKey: DependencyKey {
///   static let liveValue = APIClient(fetchPhotos: { ["live"] })
///   static let testValue = APIClient(fetchPhotos: { [] })
/// }
///
/// extension DependencyValues {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// A store reads each value once, when first used, and keeps it for its
/// life (its scopes and child features share it).
///
/// Without a `testValue`, a test that uses the dependency fails where it
/// used it, naming it and saying how to override it; the value it then gets
/// is `previewValue`.
public protocol DependencyKey: Sendable {
  /// The type of the dependency's values.
  associatedtype Value: Sendable

  /// The value a program uses outside tests and previews.
  static var liveValue: Value { get }

  /// The value every store uses in a test process, unless overridden.
  /// Without one, using the dependency in a test fails the test.
  static var testValue: Value { get }

  /// The value used in an Xcode preview; `liveValue` unless given.
  static var previewValue: Value { get }
}

extension DependencyKey {
  /// `liveValue`: a preview uses the live value unless the key gives one.
  public static var previewValue: Value { liveValue }

  /// No test value: the use is reported as a test failure (see
  /// `DependencyKey`), and the preview value stands in.
  public static var testValue: Value {
    MissingTestValue.note()
    return previewValue
  }
}

/// Tells the one who resolves a test value that the key has none: set by
/// the default `testValue`, which cannot see who reads it.
enum MissingTestValue {
  /// Set while a test value is resolved; the default `testValue` marks it.
  @TaskLocal static var probe: Flag?

  /// A mark the default `testValue` sets.
  final class Flag: Sendable {
    let isSet = SharedLock(false)
  }

  /// Marks the value being resolved as missing.
  static func note() {
    probe?.isSet.withLock { $0 = true }
  }

  /// Resolves `value`, and tells whether the key had no test value.
  static func resolve<Value>(_ value: () -> Value) -> (value: Value, isMissing: Bool) {
    let flag = Flag()
    let resolved = $probe.withValue(flag) { value() }
    return (resolved, flag.isSet.withLock { $0 })
  }
}
