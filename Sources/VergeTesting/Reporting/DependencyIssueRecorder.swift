import Verge

/// Records a dependency that a test used without a test value as a failure
/// of that test, in the framework it runs in (`TestFailureReporter.automatic`).
///
/// Verge finds this type by its name when it needs it, so that every store
/// in a test process — a view model's plain `Store` as well as a
/// `TestStore` — reports through it without the test doing anything;
/// VergeTesting only has to be linked into the test target.
enum DependencyIssueRecorder: DependencyIssueRecording {
  static func record(_ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    TestFailureReporter.automatic.report(
      message, at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}
