import Verge
extension Middleware {
  /// A middleware that describes each message in one line and hands it to
  /// `sink`: the message and the top-level properties of the state it changed.
  ///
  /// ```swift
  /// .logging { line in logger.info("\(line)") }
  /// // increment: count 1 → 2
  /// ```
  ///
  /// Place it last to log what reaches the reducer, first to log what was sent.
  ///
  /// - Parameters:
  ///   - maximumValueLength: Longer value descriptions are cut to this length.
  ///   - sink: Receives each line, synchronously, after the message was handled.
  /// - Returns: The middleware.
  public static func logging(
    maximumValueLength: Int = 60,
    sink: @escaping @Sendable (String) -> Void
  ) -> Middleware {
    Middleware(name: "logging") { step in
      guard let after = step.next() else {
        sink("\(step.message): store released")
        return
      }
      let changes = StateDescription.differences(step.stateBefore, after, maximumValueLength: maximumValueLength)
      sink("\(step.message): \(changes.isEmpty ? "no change" : changes.joined(separator: ", "))")
    }
  }
}
