/// Why file persistence refused a file, could not start, or could not write.
///
/// Errors that happen while restoring (``damaged(reason:)``,
/// ``newerVersion(found:supported:)``, ``undecodable(reason:)``,
/// ``migrationFailed(from:to:reason:)``) do not stop persistence: the file is
/// moved aside and the store keeps its initial state; ``FilePersistence/restoreOutcome``
/// tells the app what happened. The others are thrown.
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The arguments cannot work (a version below zero, a write interval that
  /// is not positive, a URL that is not a file path); nothing was changed.
  case invalidConfiguration(reason: String)
  /// Another store of this process, or another process, already persists to
  /// this file.
  case fileInUse(path: String)
  /// The file is not a complete Verge state file: a wrong header, a
  /// truncated payload, or a checksum that does not match.
  case damaged(reason: String)
  /// The file was written with a schema version this app does not know yet.
  case newerVersion(found: Int, supported: Int)
  /// The file is intact, but its payload does not decode as the persisted
  /// type.
  case undecodable(reason: String)
  /// The file has an older schema version and the migration threw, or no
  /// migration was given.
  case migrationFailed(from: Int, to: Int, reason: String)
  /// The state did not encode.
  case encodingFailed(reason: String)
  /// Something other than a regular file is at the state file's path, or at
  /// its lock file's (`<file>.lock`): a directory, a device, a FIFO, a
  /// socket or a symbolic link. Persistence never opens it for writing,
  /// moves, renames or replaces it.
  ///
  /// - `path`: what is there.
  /// - `kind`: what it is, in words ("a character device", "a FIFO", ...).
  case notARegularFile(path: String, kind: String)
  /// The state file's directory does not exist, and `persist` was not asked
  /// to create it (`createDirectories: true`); nothing was created.
  ///
  /// - `path`: the missing directory, as it was given (a directory on the
  ///   way to it may be what is missing).
  case missingDirectory(path: String)
  /// A file system call failed.
  ///
  /// - `operation`: the call (`open`, `write`, `fsync`, `rename`, ...).
  /// - `path`: the file it was about.
  /// - `code`: the `errno` it reported.
  case io(operation: String, path: String, code: Int32)
  /// The persistence was closed; nothing more is written.
  case closed

  /// A sentence saying what went wrong.
  public var description: String {
    switch self {
    case .invalidConfiguration(let reason):
      return "invalid persistence configuration: \(reason)"
    case .fileInUse(let path):
      return "another store already persists to \(path)"
    case .damaged(let reason):
      return "the state file is damaged: \(reason)"
    case .newerVersion(let found, let supported):
      return "the state file has schema version \(found), newer than the supported version \(supported)"
    case .undecodable(let reason):
      return "the state file does not decode: \(reason)"
    case .migrationFailed(let from, let to, let reason):
      return "migrating the state file from version \(from) to \(to) failed: \(reason)"
    case .encodingFailed(let reason):
      return "the state did not encode: \(reason)"
    case .notARegularFile(let path, let kind):
      return "\(path) is \(kind), not a regular file: persistence uses only regular files and leaves it untouched"
    case .missingDirectory(let path):
      return "the directory \(path) does not exist: create it, or pass createDirectories: true to persist"
    case .io(let operation, let path, let code):
      return "\(operation) failed for \(path): \(SystemError.message(code)) (errno \(code))"
    case .closed:
      return "the persistence is closed"
    }
  }
}
