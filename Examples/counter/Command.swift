/// One command of the shell, typed interactively or in a `--script`.
enum Command: Equatable, Sendable {
  case increment
  case decrement
  case incrementLater
  case cancel
  case wait
  case undo
  case redo
  case nextStyle
  case style(CounterStyle)
  case help
  case quit

  /// Every spelling the shell accepts, in help order.
  static let spellings: [(words: [String], command: Command, meaning: String)] = [
    (["+", "inc"], .increment, "add one"),
    (["-", "dec"], .decrement, "subtract one"),
    (["later", "l"], .incrementLater, "add one after a delay"),
    (["cancel", "c"], .cancel, "cancel the delayed add"),
    (["wait", "w"], .wait, "wait for the delayed add"),
    (["undo", "u"], .undo, "take back the last change"),
    (["redo", "r"], .redo, "re-apply an undone change"),
    (["style", "s"], .nextStyle, "switch to the next style"),
    (["free"], .style(.free), "use the free-commit store"),
    (["method"], .style(.method), "use the method reducer"),
    (["action"], .style(.action), "use the enum-action reducer"),
    (["help", "?"], .help, "show this help"),
    (["quit", "q"], .quit, "leave"),
  ]

  /// Parses one word.
  ///
  /// - Parameter word: The word, case-insensitive.
  /// - Returns: The command, or `nil` when the word is not one.
  init?(_ word: some StringProtocol) {
    let lowered = word.lowercased()
    guard let match = Command.spellings.first(where: { $0.words.contains(lowered) }) else {
      return nil
    }
    self = match.command
  }

  /// The word used to echo the command in scripted output.
  var word: String {
    Command.spellings.first(where: { $0.command == self })!.words[0]
  }

  /// Parses a whole script; nothing runs unless every word is valid.
  ///
  /// - Parameter script: Words separated by spaces (`"+ + - undo"`).
  /// - Returns: The commands, in order.
  /// - Throws: `ScriptError` naming the first word that is not a command.
  static func parse(script: String) throws(ScriptError) -> [Command] {
    let words = script.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," })
    guard !words.isEmpty else { throw .empty }
    var commands: [Command] = []
    for (index, word) in words.enumerated() {
      guard let command = Command(word) else {
        throw .unknownWord(String(word), position: index + 1)
      }
      commands.append(command)
    }
    return commands
  }

  /// The command list, one per line, for `help`; fits 80 columns.
  static var helpText: String {
    spellings.map { entry in
      let words = entry.words.joined(separator: " ")
      return "  " + words.padding(toLength: 14, withPad: " ", startingAt: 0) + entry.meaning
    }
    .joined(separator: "\n")
  }
}

/// Why a script was refused.
enum ScriptError: Error, Equatable, CustomStringConvertible {
  /// The script had no words.
  case empty
  /// A word at a 1-based position is not a command.
  case unknownWord(String, position: Int)

  var description: String {
    switch self {
    case .empty:
      return "the script is empty; give commands such as \"+ + - undo\""
    case .unknownWord(let word, let position):
      return "unknown command '\(word)' (word \(position) of the script); "
        + "known: + - later cancel wait undo redo style free method action"
    }
  }
}
