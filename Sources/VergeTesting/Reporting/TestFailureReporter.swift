import XCTest

/// Where a `TestStore` sends its failures.
///
/// The default, ``xcTest``, calls `XCTFail` with the message and the test's
/// own file and line, so the failure shows up at the assertion that failed.
/// Tests of test tooling (and of helpers built on it) can capture failures
/// instead and check their exact text, which `XCTExpectFailure` cannot do
/// on Linux:
///
/// ```swift
/// let failures = SharedLock<[String]>([])
/// let reporter = TestFailureReporter { message, _, _ in
///   failures.withLock { $0.append(message) }
/// }
/// let store = TestStore(initialState: .init(), reducer: Counter(), reporter: reporter)
/// ```
public struct TestFailureReporter: Sendable {
  private let handler: @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void

  /// Creates a reporter that passes each failure to `handler`.
  ///
  /// - Parameter handler: Receives the failure's message and the file and
  ///   line of the assertion that failed. It may be called from any thread.
  public init(_ handler: @escaping @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void) {
    self.handler = handler
  }

  /// Reports `message` through `XCTFail` at the given file and line.
  public static var xcTest: TestFailureReporter {
    TestFailureReporter { message, file, line in
      XCTFail(message, file: file, line: line)
    }
  }

  /// Reports one failure.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - file: The file of the assertion that failed.
  ///   - line: The line of the assertion that failed.
  public func report(_ message: String, file: StaticString, line: UInt) {
    handler(message, file, line)
  }
}
