import Foundation

/// What happened to the state file when persistence was attached.
///
/// ```swift
/// let persistence = try store.persist(\.settings, to: url, version: 2)
/// if case .refused(let error, let movedAside) = persistence.restoreOutcome {
///   logger.warning("settings reset: \(error); the old file is at \(movedAside.path)")
/// }
/// ```
public enum RestoreOutcome: Equatable, Sendable {
  /// There was no file: the store keeps its initial state, and the file is
  /// written after the first change.
  case nothingStored
  /// The stored value, written with this schema version, replaced the
  /// store's state (or the persisted part of it).
  case restored(version: Int)
  /// The file had an older schema version; the migration's result replaced
  /// the state and is written back in the current version.
  case migrated(from: Int, to: Int)
  /// The file was refused: the store keeps its initial state, and the file
  /// was renamed to `movedAsideTo` (never overwritten or deleted), so that
  /// nothing in it is lost.
  case refused(PersistenceError, movedAsideTo: URL)
}
