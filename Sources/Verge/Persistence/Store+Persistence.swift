import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

extension Store {
  /// Persists the state, or a part of it, to a file: restores it from the
  /// file now, then writes it after commits.
  ///
  /// ```swift
  /// struct AppState: Equatable {
  ///   var settings = Settings()     // Codable
  ///   var session = Session()       // not persisted
  /// }
  /// let store = Store<AppState, Never>(initialState: AppState())
  /// let persistence = try store.persist(\.settings, to: url, version: 1)
  /// ```
  ///
  /// Use `\.self` to persist the whole state (it must then be `Codable`).
  ///
  /// Restoring: when the file exists and holds a value of `version`, that
  /// value replaces the part (in a commit named `persistence.restore`, which
  /// subscribers see). A file of an older version goes through `migrate`.
  /// A damaged file, one of a newer version, one that does not decode, or
  /// one whose migration throws is refused: it is renamed aside (never
  /// overwritten or deleted), the store keeps its state, and
  /// ``FilePersistence/restoreOutcome`` says what happened and where the
  /// file went.
  ///
  /// Writing: see ``FilePersistence``. A commit with persistence attached
  /// costs one atomic read more; the encoding and the disk are the writer
  /// queue's business.
  ///
  /// - Parameters:
  ///   - part: The part of the state to persist; `\.self` for all of it.
  ///   - url: The state file; its directory is created if missing.
  ///   - version: The schema version written into the file (0 or more). Raise
  ///     it when the persisted type changes in a way old files do not decode
  ///     as, and give `migrate`.
  ///   - writeInterval: How long after a change the write happens; at most
  ///     one write starts per interval.
  ///   - migrate: Turns a stored value of an older version into the current
  ///     type; `nil` refuses older files.
  /// - Returns: The persistence, which lives as long as the store; keep it
  ///   to flush, or to ask what happened when restoring.
  /// - Throws: `PersistenceError.invalidConfiguration`, `.fileInUse` when
  ///   another store persists to the file, `.io` when the file or its
  ///   directory cannot be read or created. The state is then untouched.
  @discardableResult
  public func persist<Part: Codable & Sendable>(
    _ part: WritableKeyPath<State, Part> & Sendable,
    to url: URL,
    version: Int = 1,
    writeInterval: Duration = .milliseconds(500),
    migrate: (@Sendable (PersistedPayload) throws -> Part)? = nil
  ) throws(PersistenceError) -> FilePersistence {
    guard url.isFileURL, !url.hasDirectoryPath, !url.path.isEmpty else {
      throw .invalidConfiguration(reason: "\(url) is not the URL of a file")
    }
    guard version >= 0 else {
      throw .invalidConfiguration(reason: "the version must be 0 or more, not \(version)")
    }
    guard writeInterval > .zero else {
      throw .invalidConfiguration(reason: "the write interval must be positive, not \(writeInterval)")
    }
    let (directory, _) = StateFile.split(url.path)
    try PersistenceDirectory.create(directory)
    let path = try FileClaim.canonicalPath(url.path)
    let claim = try FileClaim.acquire(path)
    StateFile.removeStaleTemporaries(of: path)

    let restore = try PersistenceRestore<Part>.read(path, version: version, migrate: migrate)
    let (seconds, attoseconds) = writeInterval.components
    let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let interval: DispatchTimeInterval =
      nanoseconds.overflow
      ? .never : .nanoseconds(Int(clamping: nanoseconds.partialValue + attoseconds / 1_000_000_000))
    let engine = PersistenceEngine<State, Activity, Part>(
      core: core, part: part, path: path, version: version, interval: interval, claim: claim,
      restored: restore.outcome.writesBack ? nil : restore.file)
    engine.start()
    if let value = restore.value {
      var count: UInt64 = 0
      withUnsafeMutablePointer(to: &count) { count in
        core.commit(trace: CommitTrace(name: "persistence.restore", file: #fileID, function: #function, line: #line), countAfter: count) { state in
          state.modify { $0[keyPath: part] = value }
        }
      }
      // A restored file needs no write until the state changes; a migrated
      // one is written back in the current version.
      engine.markWritten(count: restore.outcome.writesBack ? nil : count)
    }
    return FilePersistence(url: url, restoreOutcome: restore.outcome, driver: engine)
  }
}

extension StoreComponentType {
  /// Persists the store's state, or a part of it, to a file; see
  /// ``Store/persist(_:to:version:writeInterval:migrate:)``.
  ///
  /// - Parameters:
  ///   - part: The part of the state to persist; `\.self` for all of it.
  ///   - url: The state file.
  ///   - version: The schema version written into the file.
  ///   - writeInterval: How long after a change the write happens.
  ///   - migrate: Turns a stored value of an older version into the current type.
  /// - Returns: The persistence.
  /// - Throws: `PersistenceError`, with the state untouched.
  @discardableResult
  public func persist<Part: Codable & Sendable>(
    _ part: WritableKeyPath<State, Part> & Sendable,
    to url: URL,
    version: Int = 1,
    writeInterval: Duration = .milliseconds(500),
    migrate: (@Sendable (PersistedPayload) throws -> Part)? = nil
  ) throws(PersistenceError) -> FilePersistence {
    try store.persist(part, to: url, version: version, writeInterval: writeInterval, migrate: migrate)
  }
}

extension RestoreOutcome {
  /// Whether the restored value must be written back (in the current version).
  var writesBack: Bool {
    if case .migrated = self { return true }
    return false
  }
}

/// Creates a state file's directory.
enum PersistenceDirectory {
  /// Creates `path` and its missing parents.
  static func create(_ path: String) throws(PersistenceError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw .io(operation: "mkdir", path: path, code: ENOTDIR) }
      return
    }
    let parent = StateFile.split(path).directory
    if parent != path { try create(parent) }
    if mkdir(path, 0o755) != 0, errno != EEXIST { throw SystemError.io("mkdir", path) }
  }
}

/// Reading the state file when persistence is attached.
struct PersistenceRestore<Part: Decodable> {
  /// What happened.
  var outcome: RestoreOutcome
  /// The value to put into the state, if any.
  var value: Part?
  /// The file's bytes when it was restored as is.
  var file: Data?

  /// Reads, checks, decodes or migrates the file at `path`; moves a refused
  /// file aside.
  ///
  /// - Throws: `.io` when the file cannot be read or moved aside.
  static func read(
    _ path: String, version: Int, migrate: (@Sendable (PersistedPayload) throws -> Part)?
  ) throws(PersistenceError) -> PersistenceRestore {
    guard let file = try StateFile.contents(of: path) else {
      return PersistenceRestore(outcome: .nothingStored)
    }
    do throws(PersistenceError) {
      let (stored, payload) = try StateFile.unframe(file)
      if stored > version {
        throw .newerVersion(found: stored, supported: version)
      }
      if stored < version {
        guard let migrate else {
          throw .migrationFailed(from: stored, to: version, reason: "no migration was given")
        }
        do {
          let value = try migrate(PersistedPayload(version: stored, data: payload))
          return PersistenceRestore(outcome: .migrated(from: stored, to: version), value: value)
        } catch {
          throw .migrationFailed(from: stored, to: version, reason: "\(error)")
        }
      }
      do {
        let value = try JSONDecoder().decode(Part.self, from: payload)
        return PersistenceRestore(outcome: .restored(version: stored), value: value, file: file)
      } catch {
        throw .undecodable(reason: "\(error)")
      }
    } catch {
      let aside = try StateFile.moveAside(path)
      return PersistenceRestore(outcome: .refused(error, movedAsideTo: URL(fileURLWithPath: aside)))
    }
  }
}
