import ExampleTerminal

/// The interactive session's output: answers on lines of their own, and
/// the prompt.
///
/// An answer that arrives while the prompt is showing (a refresh ending
/// while the user has not typed) starts on a new line, so it never runs
/// into the prompt; the prompt is then shown again.
@MainActor
final class Console {
  /// Whether the prompt is the last thing written, with nothing typed after it.
  private var atPrompt = false
  /// How many refreshes were started.
  private var refreshes = 0

  /// Counts a refresh started.
  ///
  /// - Returns: Its number, for `isLatestRefresh(_:)`.
  func startRefresh() -> Int {
    refreshes += 1
    return refreshes
  }

  /// Whether no refresh was started after refresh `number`: only the latest
  /// refresh answers.
  func isLatestRefresh(_ number: Int) -> Bool {
    number == refreshes
  }

  /// Notes that a line was read: its end moved the cursor to a new line.
  func lineRead() {
    atPrompt = false
  }

  /// Writes one line of the session.
  func show(_ line: String) {
    Terminal.write((atPrompt ? "\n" : "") + line + "\n")
    atPrompt = false
  }

  /// Writes the prompt.
  func prompt() {
    Terminal.write("comments> ")
    atPrompt = true
  }
}
