import ArgumentParser

/// Why a program's command line was refused, in the examples' own words:
/// `unknown option '--nope'`, `--script needs a value`,
/// `--delay-ms 'soon' is not valid; expected ...`.
package enum ArgumentsError: Error, Equatable, CustomStringConvertible {
  /// An option the program does not have, or an argument where none is
  /// taken, as typed.
  case unknown(String)
  /// An option, as typed, with nothing after it.
  case missingValue(String)
  /// An option, its value and what was expected instead.
  case badValue(String, String, expected: String)
  /// A refusal of another kind, in swift-argument-parser's words.
  case other(String)

  package var description: String {
    switch self {
    case .unknown(let argument): return "unknown option '\(argument)'"
    case .missingValue(let option): return "\(option) needs a value"
    case .badValue(let option, let value, let expected):
      return "\(option) '\(value)' is not valid; expected \(expected)"
    case .other(let message): return message
    }
  }

  /// Parses `arguments` with the options `Arguments` declares.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - type: The declared options.
  /// - Returns: The parsed options, or `nil` when `--help` or `-h` was given.
  /// - Throws: `ArgumentsError` for an unknown option or argument, or an
  ///   option with no value.
  package static func parse<Arguments: ParsableArguments>(
    _ arguments: [String], as type: Arguments.Type
  ) throws(ArgumentsError) -> Arguments? {
    do {
      return try Arguments.parse(arguments)
    } catch {
      if Arguments.exitCode(for: error) == .success { return nil }  // help
      throw ArgumentsError(parserMessage: Arguments.message(for: error))
    }
  }

  /// Reads swift-argument-parser's message for the two refusals it makes
  /// here: "Unknown option '--nope'" (or "Unexpected argument 'extra'") and
  /// "Missing value for '--script <script>'".
  init(parserMessage message: String) {
    func quoted(after prefix: String) -> String? {
      guard message.hasPrefix(prefix) else { return nil }
      let rest = message.dropFirst(prefix.count)
      guard let end = rest.firstIndex(of: "'") else { return nil }
      return String(rest[..<end])
    }
    if let name = quoted(after: "Unknown option '") ?? quoted(after: "Unexpected argument '") {
      self = .unknown(name)
    } else if let name = quoted(after: "Missing value for '") {
      self = .missingValue(String(name.prefix { $0 != " " }))
    } else {
      self = .other(message)
    }
  }
}
