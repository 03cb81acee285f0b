import Dispatch
import Foundation

extension Store {
  /// Attaches persistence to this store; see `ReadableStore.persist`.
  func attachPersistence<Part: Codable & Sendable>(
    _ part: WritableKeyPath<State, Part> & Sendable,
    to url: URL,
    createDirectories: Bool,
    version: Int,
    writeInterval: Duration,
    migrate: (@Sendable (PersistedPayload) throws -> Part)?
  ) throws(PersistenceError) -> FilePersistence {
    guard url.isFileURL, !url.path.isEmpty else {
      throw .invalidConfiguration(reason: "\(url.absoluteString) is not the URL of a file")
    }
    if url.hasDirectoryPath {
      // `URL(fileURLWithPath:)` ends the URL of a directory it finds with a
      // slash: say what is there.
      try StateFile.requireRegularFile(at: url.path)
      throw .invalidConfiguration(reason: "\(url.path)/ ends with a slash: it names a directory, not a file")
    }
    guard version >= 0 else {
      throw .invalidConfiguration(reason: "the version must be 0 or more, not \(version)")
    }
    guard writeInterval > .zero else {
      throw .invalidConfiguration(reason: "the write interval must be positive, not \(writeInterval)")
    }
    let (directory, _) = StateFile.split(url.path)
    if createDirectories {
      try PersistenceDirectory.create(directory)
    } else {
      try PersistenceDirectory.requireExisting(directory)
    }
    let path = try FileClaim.canonicalPath(url.path)
    // Before the claim, so that nothing (not even a lock file) is made
    // beside a device, a FIFO or a link.
    try StateFile.requireRegularFile(at: path)
    let claim = try FileClaim.acquire(path)
    StateFile.removeStaleTemporaries(of: path)

    let restore = try PersistenceRestore<Part>.readOnCodingThread(path, version: version, migrate: migrate)
    let (seconds, attoseconds) = writeInterval.components
    let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let interval: DispatchTimeInterval =
      nanoseconds.overflow
      ? .never : .nanoseconds(Int(clamping: nanoseconds.partialValue + attoseconds / 1_000_000_000))
    let engine = PersistenceEngine(
      source: persistenceSource(part), path: path, version: version, interval: interval, claim: claim,
      restored: restore.outcome.writesBack ? nil : restore.file)
    engine.start(at: core.changeCounter.current) { [core] changed, ended in
      core.subscribe(.values({ _ in changed() }), dropsFirst: true, queue: .committingThread, onTerminate: ended)
    }
    if let restored = restore.value {
      // Out of line: this code is not specialized for the state's type,
      // where an inlined commit would reserve every temporary of its small
      // path at once, each the size of the state.
      let (_, count) = commitOutOfLine(
        trace: CommitTrace(name: "persistence.restore", file: #fileID, function: #function, line: #line)
      ) { state in
        state.modify { $0[keyPath: part] = restored.value }
      }
      // A restored file needs no write until the state changes; a migrated
      // one is written back in the current version.
      engine.markWritten(count: restore.outcome.writesBack ? nil : count)
    }
    return FilePersistence(url: url, restoreOutcome: restore.outcome, engine: engine)
  }

  /// What the persistence engine reads of this store: its state core,
  /// held weakly (a pending write holds it strongly), and `part`.
  private func persistenceSource<Part: Codable & Sendable>(
    _ part: WritableKeyPath<State, Part> & Sendable
  ) -> PersistenceEngine.Source {
    PersistenceEngine.Source(
      core: { [weak core] in core },
      encode: { [weak core] written throws(PersistenceError) in
        guard let core else { return nil }
        return try CodingThread.run { () throws(PersistenceError) -> (UInt64, Data)? in
          // Let go of the state as soon as the part is out, so a commit
          // meanwhile copies as little as possible.
          var count: UInt64 = 0
          let value: Part = {
            let (state, changeCount) = core.countedValue()
            count = changeCount
            return state[keyPath: part]
          }()
          if count == written { return nil }
          do {
            return (count, try StateFile.encode(value))
          } catch {
            throw .encodingFailed(reason: "\(error)")
          }
        }
      },
      isInsideCommit: { [weak core] in core?.isLockedByCurrentThread ?? false })
  }
}

extension ReadableStore {
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
  /// Every root store shape persists this way (`Store`, `ReducerStore`,
  /// `ActionStore`, a `StoreComponentType`). A scope's state is a part of
  /// its root store's: persist that part on the root
  /// (`root.persist(\.draft, to: url)`); called on a scope, `persist`
  /// throws `.invalidConfiguration`.
  ///
  /// Restoring: when the file exists and holds a value of `version`, that
  /// value replaces the part (in a commit named `persistence.restore`, which
  /// subscribers see). A file of an older version goes through `migrate`.
  /// A damaged file, one of a newer version, one that does not decode, or
  /// one whose migration throws is refused: it is renamed aside (never
  /// overwritten or deleted; only a regular file ever is), the store keeps
  /// its state, and
  /// ``FilePersistence/restoreOutcome`` says what happened and where the
  /// file went.
  ///
  /// Writing: see ``FilePersistence``. Persistence subscribes to the store
  /// (without asking for the previous state): a commit then costs what it
  /// costs with one subscriber, plus one atomic read; the encoding and the
  /// disk are the writer queue's business.
  ///
  /// - Parameters:
  ///   - part: The part of the state to persist; `\.self` for all of it.
  ///   - url: The state file: a regular file, or nothing yet (not a
  ///     symbolic link; its directory may be reached through one). Its
  ///     directory must exist unless `createDirectories` is `true`. The
  ///     file is not JSON (a text header comes first): name it `.state`,
  ///     not `.json`.
  ///   - createDirectories: Whether to create the file's directory and
  ///     its missing parents (with permissions `0755`). By default a
  ///     missing directory is refused, so that a typo in a path does not
  ///     leave the state somewhere nobody looks.
  ///   - version: The schema version written into the file (0 or more). Raise
  ///     it when the persisted type changes in a way old files do not decode
  ///     as, and give `migrate`.
  ///   - writeInterval: How long after a change the write happens; at most
  ///     one write starts per interval.
  ///   - migrate: Turns a stored value of an older version into the current
  ///     type; `nil` refuses older files.
  /// - Returns: The persistence, which lives as long as the store; keep it
  ///   to flush, or to ask what happened when restoring.
  /// - Throws: `PersistenceError.invalidConfiguration` (also on a scope),
  ///   `.missingDirectory` when the file's directory does not exist and
  ///   `createDirectories` is `false`, `.fileInUse` when another store
  ///   persists to the file,
  ///   `.notARegularFile` when a directory, device, FIFO, socket or symbolic
  ///   link is at the file's path (or at `<file>.lock`), `.io` when the file
  ///   or its directory cannot be read or created. The state and whatever is
  ///   at the path are then untouched (directories created on the way stay).
  /// - Complexity: Reads, checks and decodes the file (and runs `migrate`)
  ///   before returning, in proportion to the file's size, on the library's
  ///   coding thread, which has a deep stack, while the calling thread waits
  ///   (decoding a large state needs more stack than a secondary thread
  ///   has). When no thread can be started (an address-space or thread
  ///   limit), the calling thread decodes instead: see the Persistence
  ///   article.
  @discardableResult
  public func persist<Part: Codable & Sendable>(
    _ part: WritableKeyPath<State, Part> & Sendable,
    to url: URL,
    createDirectories: Bool = false,
    version: Int = 1,
    writeInterval: Duration = .milliseconds(500),
    migrate: (@Sendable (PersistedPayload) throws -> Part)? = nil
  ) throws(PersistenceError) -> FilePersistence {
    guard case .store(let store) = storeView.source else {
      throw .invalidConfiguration(
        reason: "a scope's state is a part of its root store's state: persist that part on the root store")
    }
    return try store.attachPersistence(
      part, to: url, createDirectories: createDirectories, version: version, writeInterval: writeInterval,
      migrate: migrate)
  }
}
