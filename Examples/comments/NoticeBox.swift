import ExampleTerminal
import Verge

/// Collects activity notices from any thread until the screen shows them.
final class NoticeBox: Sendable {
  private let lines = Locked<[String]>([])

  /// Adds a notice.
  func append(_ line: String) {
    lines.withLock { $0.append(line) }
  }

  /// The notices so far, oldest first; empties the box.
  func take() -> [String] {
    lines.withLock { lines in
      defer { lines = [] }
      return lines
    }
  }
}
