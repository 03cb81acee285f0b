import Dispatch
import Foundation
import Synchronization

/// Writes one part of a store's state to its file after commits.
///
/// A commit only notes that something changed: the first change after a
/// write arms a timer on the writer queue (one atomic exchange and one
/// `asyncAfter`), later changes find it armed and return at once. When the
/// timer fires, the writer reads the store's current state, so the last
/// state wins and a commit never waits for the disk, never encodes and never
/// keeps a copy of the state alive between writes.
///
/// The armed timer holds the store's state core strongly, so a change made
/// just before the store goes away is still written; the core (and with it
/// the store's subscriptions) ends once that write is done.
///
/// It knows the store only through three closures (`core`, `encode`,
/// `isInsideCommit`), typed where it is made, so `FilePersistence` holds it
/// whatever the state and part types are.
final class PersistenceEngine: Sendable {

  /// What the writer knows; touched under its lock by writes (scheduled,
  /// flushed or closing) and by the store's end.
  private struct Writer {
    /// The file's claim; `nil` once the persistence has ended.
    var claim: FileClaim?
    /// Whether `close()` ended it (then `flush` reports `.closed`).
    var closedByUser = false
    var subscription: StoreSubscription?
    /// The change count of the state last written (or restored).
    var lastCount: UInt64?
    /// The bytes last written (or restored), to skip writing equal bytes.
    var lastData: Data?
    var temporaryNumber: UInt64 = 0
    /// Called after the next write that reaches the disk (for tests).
    var writeObservers: [@Sendable () -> Void] = []
  }

  /// The store's state core, held strongly, while it is there.
  let core: @Sendable () -> (any AnyObject & Sendable)?
  /// Reads the part from the core's current state and encodes it, on a
  /// `CodingThread` (the writer queue's thread, or the thread that calls
  /// `close` or `flushSynchronously`, may have too shallow a stack for a
  /// large state); `nil` when the state is still at the given change
  /// count, or the core is gone. Returns the change count read and the
  /// payload; throws `.encodingFailed` when the part does not encode.
  let encode: @Sendable (_ unlessAt: UInt64?) throws(PersistenceError) -> (UInt64, Data)?
  /// Whether the calling thread is inside a commit of the store: waiting
  /// for the writer there would deadlock, as the writer needs the store's
  /// lock to read the state (`flushSynchronously` and `close` trap).
  let isInsideCommit: @Sendable () -> Bool
  let path: String
  let version: Int
  let interval: DispatchTimeInterval
  let queue: DispatchQueue
  /// Set while a write is scheduled; a commit that finds it set does nothing.
  let armed = Atomic<Bool>(false)
  /// The core, held strongly from the first change after a write until the
  /// write (scheduled or flushed) takes it: a store that goes away with a
  /// change not yet written keeps its state core until then.
  private let pending = LockedBox<(any AnyObject & Sendable)?>(nil)
  private let writer: LockedBox<Writer>
  /// The last write's error, apart from `writer` so that reading it never
  /// waits for a write in progress.
  private let lastError = LockedBox<PersistenceError?>(nil)

  /// Starts writing after the commits of a store whose state is at change
  /// count `count`; `subscribe` subscribes `changed` to its commits and
  /// `ended` to its end. Made before restoring, so that no commit slips
  /// between the two.
  ///
  /// Until `markWritten(count:)` says otherwise, the state as it is now
  /// counts as written: nothing is written before a change.
  init(
    core: @escaping @Sendable () -> (any AnyObject & Sendable)?,
    encode: @escaping @Sendable (_ unlessAt: UInt64?) throws(PersistenceError) -> (UInt64, Data)?,
    isInsideCommit: @escaping @Sendable () -> Bool,
    path: String, version: Int, interval: DispatchTimeInterval, claim: FileClaim, restored: Data?,
    count: UInt64,
    subscribe: (_ changed: @escaping @Sendable () -> Void, _ ended: @escaping @Sendable () -> Void) -> StoreSubscription
  ) {
    self.core = core
    self.encode = encode
    self.isInsideCommit = isInsideCommit
    self.path = path
    self.version = version
    self.interval = interval
    queue = DispatchQueue(label: "Verge.FilePersistence \(path)", qos: .utility)
    writer = LockedBox(Writer(claim: claim, lastCount: count, lastData: restored))
    let subscription = subscribe({ [self] in changed() }, { [weak self] in self?.storeEnded() })
    writer.withLock { $0.subscription = subscription }
  }

  /// Records that the state at change count `count` is what the file
  /// holds (after restoring it), or that nothing is, when `nil` (after a
  /// migration, whose result must be written back).
  func markWritten(count: UInt64?) {
    writer.withLock { $0.lastCount = count }
  }

  // MARK: - On the committing thread

  /// A commit changed the state: make sure a write is scheduled.
  @inline(__always)
  func changed() {
    if armed.load(ordering: .relaxed) { return }
    if armed.exchange(true, ordering: .acquiringAndReleasing) { return }
    guard let core = self.core() else {
      armed.store(false, ordering: .releasing)
      return
    }
    pending.withLock { $0 = core }
    queue.asyncAfter(deadline: .now() + interval) { [self] in
      armed.store(false, ordering: .sequentiallyConsistent)
      _ = writeIfStoreExists()
    }
  }

  // MARK: - Writing

  /// Writes the current state unless it is what was written last, if the
  /// store (or a change it made before it went away) is still there.
  ///
  /// Called by the writer queue's scheduled write, `flush`,
  /// `flushSynchronously` and `close`, on whichever thread they run: the
  /// writer's lock orders them. The core held for a change is taken inside
  /// that lock, so a `close` that finds nothing to take knows that the write
  /// that took it is done; it is let go of after the lock, so that the core
  /// never ends inside it.
  func writeIfStoreExists() -> PersistenceError? {
    var observers: [@Sendable () -> Void] = []
    var held: (any AnyObject & Sendable)?
    let error = writer.withLock { writer -> PersistenceError? in
      // Taken first: once this write is done, nothing holds the core for it.
      held = pending.withLock { pending in
        defer { pending = nil }
        return pending
      } ?? core()
      guard held != nil else {
        // The store is gone, and what it changed before was written.
        return writer.closedByUser ? .closed : lastError.withLock { $0 }
      }
      guard let claim = writer.claim else { return writer.closedByUser ? .closed : nil }
      do throws(PersistenceError) {
        // `held` keeps the core there while it is read.
        guard let encoded = try encode(writer.lastCount) else { return nil }
        let (count, payload) = encoded
        let file = StateFile.frame(payload, version: version)
        if file != writer.lastData {
          try claim.lockForWriting()
          writer.temporaryNumber += 1
          try StateFile.replace(path, with: file, temporaryNumber: writer.temporaryNumber)
          writer.lastData = file
          swap(&observers, &writer.writeObservers)
        }
        writer.lastCount = count
        lastError.withLock { $0 = nil }
        return nil
      } catch {
        lastError.withLock { $0 = error }
        return error
      }
    }
    held = nil
    for observer in observers { observer() }
    return error
  }

  /// Calls `observer` after the next write that reaches the disk (for tests
  /// that wait for a scheduled write).
  func afterNextWrite(_ observer: @escaping @Sendable () -> Void) {
    writer.withLock { $0.writeObservers.append(observer) }
  }

  // MARK: - What `FilePersistence` asks

  var lastWriteError: PersistenceError? {
    lastError.withLock { $0 }
  }

  /// Writes on a coding thread, and calls `completion` there. Not through
  /// the writer queue (see `flushSynchronously`); the writer's lock orders
  /// it after a write in progress.
  func flush(_ completion: @escaping @Sendable (PersistenceError?) -> Void) {
    CodingThread.start { [self] in completion(writeIfStoreExists()) }
  }

  /// Writes on the calling thread, then gives the file up. As for
  /// `flushSynchronously`, the writer's lock orders the write after one in
  /// progress; not through the writer queue, whose scheduled write may be
  /// waiting for a thread that Dispatch cannot start (at a thread limit):
  /// that wait would be this call's too.
  func close() -> PersistenceError? {
    if isInsideCommit() { Misuse.reentrantUse("close") }
    let error = writeIfStoreExists()
    if error == .closed { return error }
    let taken = writer.withLock { writer -> (StoreSubscription?, FileClaim?)? in
      // Another `close` got here first.
      if writer.closedByUser { return nil }
      defer {
        writer.subscription = nil
        writer.claim = nil
        writer.closedByUser = true
      }
      return (writer.subscription, writer.claim)
    }
    guard let (subscription, claim) = taken else { return .closed }
    subscription?.cancel()
    claim?.release()
    return error
  }

  /// The store went away (its last pending write is done): give the file up.
  private func storeEnded() {
    let claim = writer.withLock { writer in
      defer { writer.claim = nil }
      return writer.claim
    }
    claim?.release()
  }
}
