/// The command line of `comments`.
struct CommentsOptions: Equatable {
  /// Commands to run without a terminal session; `nil` for interactive.
  var script: String?
  /// The seed of the simulated server's failures.
  var seed: UInt64 = 6
  /// How often, in percent, a request to the simulated server fails.
  var failurePercent = 20
  /// The simulated server's latency, in milliseconds.
  var latencyMilliseconds = 300
  /// How many photos the simulated server holds.
  var photoCount = 3
  /// The file that keeps the gallery between runs; `nil` keeps nothing.
  var stateFile: String?
  /// The trace file (`--trace`); `nil` traces nothing.
  var tracePath: String?
  /// Whether to print the usage and leave.
  var showsHelp = false

  static let usage = """
    usage: comments [--seed N] [--failure-percent N] [--latency-ms N]
                    [--photos N] [--script "CMD; CMD"] [--state-file PATH]
                    [--trace FILE]

    Photos, authors and comments held normalized in VergeORM, loaded from a
    simulated server with latency and seeded failures (the same seed gives the
    same failures). Without --script it reads one command per line.

    --photos N gives the server N photos (default 3, the sample; up to
    1000000): every command but refresh costs the same with 100000.

    With --state-file PATH the database (photos, authors, comments) is kept in
    PATH: restored at start, saved as it changes, and at the end; the simulated
    server starts from it too. A damaged file, or one from a newer version, is
    moved aside (the message says where) and the gallery starts empty.
    PATH's directory must exist.

    With --trace FILE a trace of the store is written to FILE (each action
    with its cause and state diff, each request's effect from start to end,
    activities), and at the end a timeline page beside it: FILE with the
    extension .html.

    commands:
    \(GalleryCommand.helpText)
    """

  /// Parses the arguments after the program name.
  ///
  /// - Parameter arguments: The arguments.
  /// - Throws: `CommentsOptionsError` for an unknown option, a missing value
  ///   or a bad one.
  init(_ arguments: [String]) throws(CommentsOptionsError) {
    var rest = arguments[...]
    func value(of option: String) throws(CommentsOptionsError) -> String {
      guard let value = rest.popFirst() else { throw .missingValue(option) }
      return value
    }
    func number<Number: FixedWidthInteger>(
      of option: String, in range: ClosedRange<Number>
    ) throws(CommentsOptionsError) -> Number {
      let text = try value(of: option)
      guard let number = Number(text), range.contains(number) else {
        throw .badValue(option, text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--help", "-h": showsHelp = true
      case "--script", "-s": script = try value(of: argument)
      case "--state-file":
        let path = try value(of: argument)
        guard !path.isEmpty else { throw .badValue(argument, path, expected: "the path of a file") }
        stateFile = path
      case "--trace":
        let path = try value(of: argument)
        guard !path.isEmpty else { throw .badValue(argument, path, expected: "the path of a file") }
        tracePath = path
      case "--seed": seed = try number(of: argument, in: 0...UInt64.max)
      case "--failure-percent": failurePercent = try number(of: argument, in: 0...100)
      case "--latency-ms": latencyMilliseconds = try number(of: argument, in: 0...60_000)
      case "--photos": photoCount = try number(of: argument, in: 0...1_000_000)
      default: throw .unknown(argument)
      }
    }
  }
}

/// Why the command line of `comments` was refused.
enum CommentsOptionsError: Error, Equatable, CustomStringConvertible {
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
