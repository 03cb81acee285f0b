/// What one `send` or `dispatch` of a test caused, in order: the effects it
/// started and what its work produced, each with what became of it. Shown
/// with the failures reported at `finish()`, so a leftover says how it came
/// to be.
struct Timeline: Sendable {
  /// What became of an entry.
  enum Status: Sendable {
    /// Nothing to say (an effect that ended, a note).
    case none
    /// Produced, and asserted by the test.
    case asserted
    /// Produced, and not asserted.
    case notAsserted
    /// Produced, and skipped (exhaustivity off, or a skip call).
    case skipped
    /// Work that is still running.
    case running
    /// Work that ended.
    case ended
    /// Work that ended by cancellation.
    case cancelled
    /// Work that ended by throwing.
    case failed

    var suffix: String {
      switch self {
      case .none: return ""
      case .asserted: return " (asserted)"
      case .notAsserted: return " (not asserted)"
      case .skipped: return " (skipped)"
      case .running: return " (still running)"
      case .ended: return " (ended)"
      case .cancelled: return " (cancelled)"
      case .failed: return " (failed)"
      }
    }
  }

  struct Entry: Sendable {
    /// Formed only when a failure shows the timeline: describing an action
    /// is costly.
    let describe: @Sendable () -> String
    var status: Status
  }

  /// At most this many entries are kept; the oldest go first.
  static var limit: Int { 64 }
  /// At most this many entries are shown.
  static var shown: Int { 12 }

  private(set) var entries: [Entry] = []
  /// Entries dropped to stay within `limit`; indices given out stay valid.
  private var dropped = 0

  /// Appends an entry.
  ///
  /// - Returns: Its index, for `mark`.
  @discardableResult
  mutating func append(_ describe: @escaping @Sendable () -> String, status: Status = .none) -> Int {
    if entries.count == Self.limit {
      entries.removeFirst(Self.limit / 2)
      dropped += Self.limit / 2
    }
    entries.append(Entry(describe: describe, status: status))
    return dropped + entries.count - 1
  }

  /// Changes the status of the entry `index`, if still kept.
  mutating func mark(_ index: Int, _ status: Status) {
    let position = index - dropped
    guard entries.indices.contains(position) else { return }
    entries[position].status = status
  }

  /// `Timeline of send(.load) at GalleryTests.swift:12:` and one indented
  /// line per entry; a long timeline shows its latest entries.
  func render(title: String) -> String {
    var lines = entries.suffix(Self.shown - 1).map { "  " + $0.describe() + $0.status.suffix }
    let hidden = dropped + entries.count - lines.count
    if hidden > 0 { lines.insert("  … \(hidden) earlier", at: 0) }
    return "\(title):\n" + lines.joined(separator: "\n")
  }
}
