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
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--script", "-s":
        guard let value = rest.popFirst() else { throw .missingValue(argument) }
        script = value
      case "--style":
        guard let value = rest.popFirst() else { throw .missingValue(argument) }
        guard let chosen = CounterStyle(rawValue: value) else {
          throw .badValue(argument, value, expected: "free, method or action")
        }
        style = chosen
      case "--delay-ms":
        guard let value = rest.popFirst() else { throw .missingValue(argument) }
        guard let number = Int(value), (0...60_000).contains(number) else {
          throw .badValue(argument, value, expected: "a whole number from 0 to 60000")
        }
        delayMilliseconds = number
      case "--state-file":
        guard let value = rest.popFirst() else { throw .missingValue(argument) }
        guard !value.isEmpty else { throw .badValue(argument, value, expected: "the path of a file") }
        stateFile = value
      case "--trace":
        guard let value = rest.popFirst() else { throw .missingValue(argument) }
        guard !value.isEmpty else { throw .badValue(argument, value, expected: "the path of a file") }
        tracePath = value
      case "--help", "-h":
        showsHelp = true
      default:
        throw .unknown(argument)
      }
    }
  }
}

/// Why the command line was refused.
enum OptionsError: Error, Equatable, CustomStringConvertible {
  case unknown(String)
  case missingValue(String)
  case badValue(String, String, expected: String)

  var description: String {
    switch self {
    case .unknown(let argument): return "unknown option '\(argument)'"
    case .missingValue(let option): return "\(option) needs a value"
    case .badValue(let option, let value, let expected):
      return "\(option) '\(value)' is not valid; expected \(expected)"
    }
  }
}
