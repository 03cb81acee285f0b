import ArgumentParser
import ExampleTerminal

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
    guard let parsed = try CommentsOptionsError.parse(arguments, as: Arguments.self) else {
      showsHelp = true
      return
    }
    func number<Number: FixedWidthInteger>(
      _ text: String?, of option: String, in range: ClosedRange<Number>
    ) throws(CommentsOptionsError) -> Number? {
      guard let text else { return nil }
      guard let number = Number(text), range.contains(number) else {
        throw .badValue(option, text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    script = parsed.script
    if let path = parsed.stateFile {
      guard !path.isEmpty else { throw .badValue("--state-file", path, expected: "the path of a file") }
      stateFile = path
    }
    if let path = parsed.trace {
      guard !path.isEmpty else { throw .badValue("--trace", path, expected: "the path of a file") }
      tracePath = path
    }
    seed = try number(parsed.seed, of: "--seed", in: 0...UInt64.max) ?? seed
    failurePercent = try number(parsed.failurePercent, of: "--failure-percent", in: 0...100) ?? failurePercent
    latencyMilliseconds = try number(parsed.latency, of: "--latency-ms", in: 0...60_000) ?? latencyMilliseconds
    photoCount = try number(parsed.photos, of: "--photos", in: 0...1_000_000) ?? photoCount
  }

  /// The options as swift-argument-parser reads them; `init` checks the
  /// values. Each takes the next argument whatever it looks like, so a
  /// script may start with `-`.
  struct Arguments: ParsableArguments {
    @Option(name: [.customLong("script"), .customShort("s")], parsing: .unconditional)
    var script: String?
    @Option(name: .customLong("state-file"), parsing: .unconditional)
    var stateFile: String?
    @Option(name: .customLong("trace"), parsing: .unconditional)
    var trace: String?
    @Option(name: .customLong("seed"), parsing: .unconditional)
    var seed: String?
    @Option(name: .customLong("failure-percent"), parsing: .unconditional)
    var failurePercent: String?
    @Option(name: .customLong("latency-ms"), parsing: .unconditional)
    var latency: String?
    @Option(name: .customLong("photos"), parsing: .unconditional)
    var photos: String?
  }
}

/// Why the command line of `comments` was refused.
typealias CommentsOptionsError = ArgumentsError
