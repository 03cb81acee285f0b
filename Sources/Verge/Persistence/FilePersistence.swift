import Foundation

/// A store's connection to its state file: restores the state when made,
/// then writes it after commits, atomically and off the committing thread.
///
/// Make one with ``ReadableStore/persist(_:to:createDirectories:version:writeInterval:migrate:)``:
///
/// ```swift
/// let persistence = try store.persist(\.settings, to: settingsURL, version: 1)
/// // ... later, before the app quits:
/// try await persistence.flush()
/// ```
///
/// The persistence lives as long as the store, whether or not you keep this
/// handle; keep it to flush, to read ``restoreOutcome`` and
/// ``lastWriteError``, or to ``close()`` early.
///
/// - Writes are debounced: the first change after a write schedules the next
///   one `writeInterval` later, and that write takes the state as it is
///   then, so the last state wins and at most one write starts per interval.
/// - A write never leaves a half-written file: it goes to a temporary file
///   in the same directory, is synced to the disk, renamed over the old file,
///   and the directory is synced. A crash at any moment leaves the old state
///   or the new one.
/// - A change made just before the store goes away is still written, at its
///   scheduled time or by an earlier `flush`; until then the persistence
///   keeps the store's state core (not the store itself) alive, so the
///   store's subscriptions end once that write is done.
/// - Only one store, in this process or any other, persists to a file at a
///   time: the file is claimed with a lock file beside it (`<file>.lock`).
public final class FilePersistence: Sendable {
  /// The state file.
  public let url: URL
  /// What happened to the stored state when this persistence was made.
  public let restoreOutcome: RestoreOutcome
  /// The engine that writes.
  let engine: PersistenceEngine

  init(url: URL, restoreOutcome: RestoreOutcome, engine: PersistenceEngine) {
    self.url = url
    self.restoreOutcome = restoreOutcome
    self.engine = engine
  }

  /// The error of the last write, `nil` when it succeeded (or none ran
  /// yet). A failed write is retried after the next commit and by `flush`.
  public var lastWriteError: PersistenceError? {
    engine.lastWriteError
  }

  /// Writes the current state now if it has not been written yet, and
  /// returns when it is on the disk.
  ///
  /// Call it when the app is about to quit or go to the background. Waits for
  /// a write in progress first. The write runs on the library's coding
  /// thread, not on the caller's and not on one Dispatch must start, so it
  /// finishes at a thread limit too (on the calling thread then, when no
  /// thread can be started at all).
  ///
  /// - Throws: `PersistenceError` when the write fails (the file keeps its
  ///   previous state), `.closed` after `close()`.
  public func flush() async throws(PersistenceError) {
    let error = await withCheckedContinuation { continuation in
      engine.flush { error in continuation.resume(returning: error) }
    }
    if let error { throw error }
  }

  /// Writes the current state now if it has not been written yet, blocking
  /// the calling thread until it is on the disk; for code that cannot
  /// `await` (an app delegate's termination callback).
  ///
  /// The write happens on the calling thread, after a write in progress, so
  /// it needs no other thread than the library's coding thread (and does
  /// without that one when none can be started).
  ///
  /// - Throws: `PersistenceError` when the write fails (the file keeps its
  ///   previous state), `.closed` after `close()`.
  public func flushSynchronously() throws(PersistenceError) {
    if let error = engine.flushSynchronously() { throw error }
  }

  /// Calls `observer` after the next write that reaches the disk; lets tests
  /// wait for a scheduled write instead of sleeping.
  func afterNextWrite(_ observer: @escaping @Sendable () -> Void) {
    engine.afterNextWrite(observer)
  }

  /// Writes what is pending, stops persisting and gives the file up, so that
  /// another store may persist to it. Later commits are not written.
  ///
  /// - Throws: The final write's error (the persistence is closed anyway),
  ///   `.closed` when it was closed before.
  public func close() throws(PersistenceError) {
    if let error = engine.close() { throw error }
  }
}
