#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Bionic)
  import Bionic
#endif

/// Tells, once per process, whether tests run in it, by looking for the
/// test frameworks' entry points among what the process has loaded.
///
/// Both XCTest and Swift Testing are shared libraries (frameworks on Apple
/// platforms) that a test runner loads and a program does not: finding
/// `XCTFail` or `Issue.record` by name is a check that needs neither
/// framework imported here, works the same on Linux and Apple platforms,
/// and does not depend on how the runner was started (environment
/// variables, process names).
enum TestProcess {
  /// The mangled names looked for: `XCTest.XCTFail(_:file:line:)` and
  /// `Testing.Issue.record(_:sourceLocation:)`, stable parts of each
  /// framework's ABI.
  static let symbols = [
    "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF",
    "$s7Testing5IssueV6record_14sourceLocationAcA7CommentVSg_AA06SourceE0VtFZ",
  ]

  /// The process's dependency context.
  static var context: DependencyContext {
    if let preview = getenv("XCODE_RUNNING_FOR_PREVIEWS"), String(cString: preview) == "1" {
      return .preview
    }
    return isTesting ? .test : .live
  }

  /// Whether a test framework is loaded.
  static var isTesting: Bool {
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return symbols.contains { dlsym(everywhere, $0) != nil }
  }
}
