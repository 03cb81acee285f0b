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
  /// Whether the session has ended (`quit` or the end of input): a refresh
  /// that ends after that does not answer.
  private var hasEnded = false

  /// Counts a refresh started.
  ///
  /// - Returns: Its number, for `isLatestRefresh(_:)`.
  func startRefresh() -> Int {
    refreshes += 1
    return refreshes
  }

  /// Whether refresh `number` answers: only the latest one does, and none
  /// once the session has ended.
  func isLatestRefresh(_ number: Int) -> Bool {
    number == refreshes && !hasEnded
  }

  /// Ends the session: nothing answers after this.
  func end() {
    hasEnded = true
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
