import ExampleTerminal

/// What a program run in a test wrote, line by line, instead of standard
/// output and standard error.
@MainActor
final class CapturedOutput {
  /// The lines written to the output, in order.
  private(set) var lines: [String] = []
  /// The messages written for the user, in order.
  private(set) var errors: [String] = []

  /// The output to give the program.
  var output: ProgramOutput {
    ProgramOutput(line: { self.lines.append($0) }, error: { self.errors.append($0) })
  }
}
