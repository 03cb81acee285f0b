#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Bionic)
  import Bionic
#endif

/// Records a test failure in the framework the test runs in; VergeTesting
/// provides the one conforming type, `DependencyIssueRecorder`.
///
/// Verge cannot import XCTest or Swift Testing (a program links neither),
/// so it finds VergeTesting's recorder by its type's name in the Swift
/// run time's metadata, which every loaded module registers. That works
/// in a test binary on Linux, whose symbols are not exported (`dlsym`
/// could not find a function there), and calls the recorder as ordinary
/// Swift code, with no guess about a framework's calling convention.
package protocol DependencyIssueRecording: SendableMetatype {
  /// Records `message` as a failure of the running test at the location.
  static func record(_ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
}

/// Reports dependencies that a test used without a test value.
enum DependencyIssue {
  /// The mangled name of `VergeTesting.DependencyIssueRecorder` (a test
  /// checks that it matches).
  static let recorderName = "12VergeTesting23DependencyIssueRecorderO"

  /// VergeTesting's recorder, when VergeTesting is in the process.
  static let recorder: (any DependencyIssueRecording.Type)? =
    _typeByName(recorderName) as? any DependencyIssueRecording.Type

  /// Captures the reports instead of recording them, for the library's
  /// own tests.
  @TaskLocal package static var capture: (@Sendable (String) -> Void)?

  /// Reports that a test used `Key`, which has no test value.
  static func reportMissingTestValue<Key: DependencyKey>(_ key: Key.Type) {
    let site = DependencySite.current
    let keyName = String(reflecting: key)
    let property = propertyName(guessedFrom: key)
    let message = """
      The dependency `\(property)` (\(keyName)) has no testValue, and a test used it. \
      Override it where the store is made (withDependencies: { $0.\(property) = … }), \
      or give \(keyName) a testValue.
      """
    if let capture {
      capture(message)
      return
    }
    if let recorder {
      recorder.record(
        message, fileID: site?.fileID ?? #fileID, filePath: site?.filePath ?? #filePath,
        line: site?.line ?? #line, column: site?.column ?? #column)
      return
    }
    // No VergeTesting in the test process: say so, and stop the test run,
    // which is the failure a test framework would have recorded.
    fatalError("Verge: \(message) (Link VergeTesting into the test target to record this as a test failure.)")
  }

  /// The property a key type is usually exposed as: its name without
  /// `Key`, its leading capitals lowered (`APIClientKey`: `apiClient`).
  static func propertyName<Key>(guessedFrom key: Key.Type) -> String {
    var name = String(describing: key)
    if name.hasSuffix("Key") && name.count > 3 { name.removeLast(3) }
    let characters = Array(name)
    var upper = 0
    while upper < characters.count, characters[upper].isUppercase { upper += 1 }
    // In `APIClient`, the capital before the first small letter starts a word.
    let lowered = upper > 1 && upper < characters.count ? upper - 1 : upper
    return characters.prefix(lowered).map { $0.lowercased() }.joined() + String(characters.dropFirst(lowered))
  }
}
