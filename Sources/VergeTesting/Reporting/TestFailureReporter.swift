import Foundation
import XCTest

#if canImport(Testing)
  import Testing
#endif

/// Where a `TestStore` sends its failures.
///
/// The default, ``automatic``, records each failure in the framework the
/// test runs in — a Swift Testing issue inside `@Test`, `XCTFail` inside an
/// `XCTestCase` — at the test's own file and line, so it shows up at the
/// assertion that failed.
///
/// Tests of test tooling (and of helpers built on it) capture failures
/// instead and check their exact text, which `XCTExpectFailure` cannot do
/// on Linux:
///
/// ```swift
/// import Synchronization
///
/// final class Failures: Sendable {
///   let messages = Mutex<[String]>([])
/// }
///
/// let failures = Failures()
/// let reporter = TestFailureReporter { message, _, _ in
///   failures.messages.withLock { $0.append(message) }
/// }
/// let store = TestStore(initialState: .init(), reducer: Counter(), reporter: reporter)
/// await store.send(.increment) { $0.count = 2 }
/// // failures.messages now holds "send(.increment): the state is not what was expected: …"
/// ```
public struct TestFailureReporter: Sendable {
  private let handler: @Sendable (_ message: String, _ location: FailureLocation) -> Void
  /// Gets what `Exhaustivity.off(showSkippedAssertions: true)` shows.
  private let skipped: @Sendable (_ message: String, _ location: FailureLocation) -> Void

  private init(
    location handler: @escaping @Sendable (_ message: String, _ location: FailureLocation) -> Void,
    skipped: @escaping @Sendable (_ message: String, _ location: FailureLocation) -> Void
  ) {
    self.handler = handler
    self.skipped = skipped
  }

  /// Creates a reporter that passes each failure to `handler` instead of
  /// failing the test.
  ///
  /// - Parameters:
  ///   - handler: Receives the failure's message and the file
  ///     (`#filePath`) and line of the assertion that failed. It may be
  ///     called from any thread.
  ///   - skippedAssertion: Receives, the same way, each assertion that
  ///     `Exhaustivity.off(showSkippedAssertions: true)` skipped and shows;
  ///     by default they are dropped.
  public init(
    _ handler: @escaping @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void,
    skippedAssertion: @escaping @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void = { _, _, _ in }
  ) {
    self.handler = { message, location in handler(message, location.filePath, location.line) }
    self.skipped = { message, location in skippedAssertion(message, location.filePath, location.line) }
  }

  /// Records each failure in the framework the test runs in: a Swift
  /// Testing issue while a Swift Testing test runs (`Test.current` is set),
  /// otherwise `XCTFail`. The default of every `TestStore`.
  ///
  /// Off a test's task (a detached task, a dispatch queue, another thread)
  /// neither framework can say which test is running, so the failure goes
  /// to both: a Swift Testing run reports an issue recorded there and fails,
  /// and ignores `XCTFail`; an XCTest run fails the running test and
  /// ignores the issue.
  ///
  /// A skipped assertion that `Exhaustivity.off(showSkippedAssertions:
  /// true)` shows is a known issue in Swift Testing (listed, not failing)
  /// and a line on standard error in XCTest.
  public static var automatic: TestFailureReporter {
    TestFailureReporter(
      location: { message, location in
        #if canImport(Testing)
          recordIssue(message, at: location)
          if Test.current != nil { return }
        #endif
        XCTFail(message, file: location.filePath, line: location.line)
      },
      skipped: { message, location in
        #if canImport(Testing)
          if Test.current != nil {
            recordKnownIssue(message, at: location)
            return
          }
        #endif
        writeToStandardError(message, at: location)
      })
  }

  /// Reports each failure through `XCTFail` at the assertion's file and
  /// line, and each skipped assertion it is shown as a line on standard
  /// error.
  public static var xcTest: TestFailureReporter {
    TestFailureReporter(
      location: { message, location in
        XCTFail(message, file: location.filePath, line: location.line)
      },
      skipped: writeToStandardError)
  }

  /// `File.swift:12: message`, on standard error.
  private static func writeToStandardError(_ message: String, at location: FailureLocation) {
    FileHandle.standardError.write(Data("\(location.filePath):\(location.line): \(message)\n".utf8))
  }

  #if canImport(Testing)
    /// Records each failure as a Swift Testing issue at the assertion's
    /// source location, and each skipped assertion it is shown as a known
    /// issue there.
    public static var swiftTesting: TestFailureReporter {
      TestFailureReporter(location: recordIssue, skipped: recordKnownIssue)
    }

    private static func recordKnownIssue(_ message: String, at location: FailureLocation) {
      withKnownIssue { recordIssue(message, at: location) }
    }

    private static func recordIssue(_ message: String, at location: FailureLocation) {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: "\(location.fileID)", filePath: "\(location.filePath)",
          line: Int(location.line), column: Int(location.column)))
    }
  #endif

  /// Reports one failure.
  ///
  /// Helpers built on a test store call it to fail at their caller's
  /// location:
  ///
  /// ```swift
  /// func expectEmpty(_ store: TestStore<Gallery>, fileID: StaticString = #fileID,
  ///                  file: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
  ///   if !store.state.photos.isEmpty {
  ///     store.reporter.report("photos not empty", fileID: fileID, file: file, line: line, column: column)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - fileID: The `#fileID` of the assertion that failed.
  ///   - file: The `#filePath` of the assertion that failed.
  ///   - line: The line of the assertion that failed.
  ///   - column: The column of the assertion that failed.
  public func report(
    _ message: String,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    handler(message, FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// Reports one failure at `location`.
  func report(_ message: String, at location: FailureLocation) {
    handler(message, location)
  }

  /// A reporter that shows, as skipped assertions, the failures reported to
  /// it.
  var showingSkippedAssertions: TestFailureReporter {
    let skipped = skipped
    return TestFailureReporter(
      location: { message, location in skipped("Skipped assertion (exhaustivity is off): " + message, location) },
      skipped: skipped)
  }
}
