import Foundation

/// Where a program's scripted output and its messages go: standard output
/// and standard error when it runs, lists of lines in a test.
@MainActor
package struct ProgramOutput {
  /// Writes one line of output.
  package var line: (String) -> Void
  /// Writes one message for the user (an error, a warning).
  package var error: (String) -> Void

  /// Creates an output from its two writers.
  ///
  /// - Parameters:
  ///   - line: Writes one line of output.
  ///   - error: Writes one message for the user.
  package init(line: @escaping (String) -> Void, error: @escaping (String) -> Void) {
    self.line = line
    self.error = error
  }

  /// Lines to standard output (through stdio, flushed when the program
  /// exits), messages to standard error (at once).
  package static var standard: ProgramOutput {
    ProgramOutput(
      line: { print($0) },
      error: { Terminal.write($0 + "\n", to: STDERR_FILENO) })
  }
}
