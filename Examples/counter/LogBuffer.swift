import ExampleTerminal
import Verge

/// Keeps the last few log lines of the logging middlewares, for the screen.
final class LogBuffer: Sendable {
  /// The most lines kept.
  let capacity: Int
  private let lines: Locked<[String]>

  /// Creates an empty buffer.
  ///
  /// - Parameter capacity: The most lines kept; older ones are dropped.
  init(capacity: Int = 5) {
    self.capacity = max(1, capacity)
    lines = Locked([])
  }

  /// Adds a line, dropping the oldest when full.
  ///
  /// - Parameter line: The line.
  func append(_ line: String) {
    lines.withLock { lines in
      lines.append(line)
      if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
    }
  }

  /// The kept lines, oldest first.
  var recent: [String] { lines.withLock { $0 } }
}
