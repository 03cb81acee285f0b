#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Bionic)
  import Bionic
#endif

/// Tells, once per process, whether tests run in it: a test framework is
/// loaded, and the process is a test runner.
///
/// Both XCTest and Swift Testing are shared libraries (frameworks on Apple
/// platforms): finding `XCTFail` or `Issue.record` by name among what the
/// process has loaded needs neither framework imported here and works the
/// same on Linux and Apple platforms. A program can link them without
/// running tests (a benchmark harness that links VergeTesting), so the
/// process must also be a runner: a SwiftPM test binary (`….xctest`, on
/// Linux and as the bundle `xctest` loads on macOS), or one Xcode starts
/// (it sets `XCTestConfigurationFilePath`, `XCTestBundlePath` or
/// `XCTestSessionIdentifier`).
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
    return symbols.contains { dlsym(everywhere, $0) != nil } && isTestRunner
  }

  /// Whether the process was started as a test runner.
  static var isTestRunner: Bool {
    let variables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
    if variables.contains(where: { getenv($0) != nil }) { return true }
    return CommandLine.arguments.contains { argument in
      argument.hasSuffix(".xctest") || argument.hasSuffix(".xctest/") || argument.hasSuffix("/xctest")
        || argument == "xctest"
    }
  }
}
