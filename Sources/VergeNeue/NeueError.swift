/// The errors VergeNeue reports for bad input. Each leaves the state as it
/// was.
public enum NeueError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A middleware dropped the action named `name`, so it never ran.
  case dropped(name: String)
  /// A recording was replayed into a store whose state is not the state the
  /// recording started from; `differences` lists the differing top-level
  /// properties (`name: expected … actual …`).
  case replayStartMismatch(differences: [String])
  /// An argument was out of range; the message says which and why.
  case invalidArgument(String)

  /// A sentence explaining the error.
  public var description: String {
    switch self {
    case .dropped(let name):
      return "A middleware dropped '\(name)' before it ran."
    case .invalidArgument(let message):
      return message
    case .replayStartMismatch(let differences):
      return "Replay refused: the store's state differs from the recording's start state (\(differences.joined(separator: "; ")))."
    }
  }
}
