import ArgumentParser
import ExampleTerminal

/// The command line of `counter`.
struct Options: Equatable {
  /// Commands to run without a terminal session; `nil` for interactive.
  var script: String?
  /// The style to start with.
  var style: CounterStyle = .free
  /// How long "later" waits, in milliseconds.
  var delayMilliseconds = 1_000
  /// The file that keeps the counts between runs; `nil` keeps nothing.
  var stateFile: String?
  /// The trace file (`--trace`); `nil` traces nothing.
  var tracePath: String?
  /// Whether to print the usage and leave.
  var showsHelp = false

  static let usage = """
    usage: counter [--style free|method|action] [--delay-ms N] [--script "COMMANDS"]
                   [--state-file PATH] [--trace FILE]

    The same counter written three ways with Verge: free commits on a Store,
    a method reducer, and an enum-action reducer with a cancellable effect.

    Without --script it reads commands from standard input, one per line.
    With --script it runs the commands, prints each state on its own line
    and exits (for example: counter --script "+ + - undo").

    With --state-file PATH the count of each of the three styles is kept in
    PATH: restored at start, saved as it changes, and at the end. Undo history
    and pending "later" adds are not saved. A damaged file, or one from a newer
    version, is moved aside (the message says where) and the counts start at 0.
    PATH's directory must exist.

    With --trace FILE a trace of the starting style's store is written to
    FILE (its actions, effects and commits with their state diffs), and at
    the end a timeline page beside it: FILE with the extension .html.

    commands:
    \(Command.helpText)
    """

  /// Parses the arguments after the program name.
  ///
  /// - Parameter arguments: The arguments.
  /// - Throws: `OptionsError` for an unknown option or a bad value.
  init(_ arguments: [String]) throws(OptionsError) {
    guard let parsed = try OptionsError.parse(arguments, as: Arguments.self) else {
      showsHelp = true
      return
    }
    script = parsed.script
    if let value = parsed.style {
      guard let chosen = CounterStyle(rawValue: value) else {
        throw .badValue("--style", value, expected: "free, method or action")
      }
      style = chosen
    }
    if let value = parsed.delay {
      guard let number = Int(value), (0...60_000).contains(number) else {
        throw .badValue("--delay-ms", value, expected: "a whole number from 0 to 60000")
      }
      delayMilliseconds = number
    }
    if let value = parsed.stateFile {
      guard !value.isEmpty else { throw .badValue("--state-file", value, expected: "the path of a file") }
      stateFile = value
    }
    if let value = parsed.trace {
      guard !value.isEmpty else { throw .badValue("--trace", value, expected: "the path of a file") }
      tracePath = value
    }
  }

  /// The options as swift-argument-parser reads them; `init` checks the
  /// values. Each takes the next argument whatever it looks like, so a
  /// script may start with `-`.
  struct Arguments: ParsableArguments {
    @Option(name: [.customLong("script"), .customShort("s")], parsing: .unconditional)
    var script: String?
    @Option(name: .customLong("style"), parsing: .unconditional)
    var style: String?
    @Option(name: .customLong("delay-ms"), parsing: .unconditional)
    var delay: String?
    @Option(name: .customLong("state-file"), parsing: .unconditional)
    var stateFile: String?
    @Option(name: .customLong("trace"), parsing: .unconditional)
    var trace: String?
  }
}

/// Why the command line was refused.
typealias OptionsError = ArgumentsError
