#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

/// The right to persist to one state file: held by one persistence at a
/// time, in this process (a registry of open paths) and across processes
/// (an exclusive `flock` on `<file>.lock` beside the file, which the system
/// drops when the process ends, however it ends).
///
/// In a directory the process cannot write to, the lock file cannot be
/// made: the claim then holds for this process only, which is enough to
/// restore, and takes the lock before the first write (which, until the
/// directory becomes writable, fails with the lock file's error).
final class FileClaim: Sendable {
  /// The canonical paths claimed in this process.
  private static let claimed = LockedBox<Set<String>>([])

  private enum Lock {
    /// Not taken yet: the lock file could not be made.
    case pending
    case held(Int32)
    case released
  }

  /// The state file's canonical path.
  let path: String
  private let lock: LockedBox<Lock>

  private init(path: String, lock: Lock) {
    self.path = path
    self.lock = LockedBox(lock)
  }

  deinit {
    release()
  }

  private var lockPath: String { path + ".lock" }

  /// Claims the state file at `path` (canonical: its directory's symbolic links
  /// resolved, as `ReadableStore.persist` makes it).
  ///
  /// - Throws: `PersistenceError.fileInUse` when a store of this or another
  ///   process holds it; `.notARegularFile` when something else is at the
  ///   lock file's path; `.io` when the lock file cannot be opened for
  ///   another reason than a read-only directory.
  static func acquire(_ path: String) throws(PersistenceError) -> FileClaim {
    let inserted = claimed.withLock { $0.insert(path).inserted }
    guard inserted else { throw .fileInUse(path: path) }
    do throws(PersistenceError) {
      let descriptor = try takeLock(path + ".lock", path: path, unlessReadOnly: true)
      return FileClaim(path: path, lock: descriptor.map { .held($0) } ?? .pending)
    } catch {
      claimed.withLock { _ = $0.remove(path) }
      throw error
    }
  }

  /// Opens (creating it if needed) and locks the lock file.
  ///
  /// - Returns: The locked descriptor, or `nil` when `unlessReadOnly` and
  ///   the location does not let this process create or open the lock file.
  private static func takeLock(
    _ lockPath: String, path: String, unlessReadOnly: Bool
  ) throws(PersistenceError) -> Int32? {
    func isReadOnly(_ error: PersistenceError) -> Bool {
      guard case .io("open", _, let code) = error else { return false }
      return [EACCES, EROFS, EPERM].contains(code)
    }
    let fd: Int32
    do throws(PersistenceError) {
      // For writing where it can be (`flock` over NFS needs it) ...
      fd = try StateFile.openRegularFile(lockPath, flags: O_RDWR | O_CREAT)!
    } catch where isReadOnly(error) {
      // ... for reading in a read-only location, where a lock file left
      // there still locks.
      do throws(PersistenceError) {
        guard let readOnly = try StateFile.openRegularFile(lockPath, flags: O_RDONLY) else {
          if unlessReadOnly { return nil }
          throw error
        }
        fd = readOnly
      } catch where unlessReadOnly && isReadOnly(error) {
        return nil
      }
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(fd)
      if code == EWOULDBLOCK { throw .fileInUse(path: path) }
      throw .io(operation: "flock", path: lockPath, code: code)
    }
    return fd
  }

  /// Makes sure the cross-process lock is held before a write.
  ///
  /// - Throws: The lock file's error when it still cannot be made (the
  ///   directory is read-only), `.fileInUse` when another process took the
  ///   file meanwhile, `.closed` after `release()`.
  func lockForWriting() throws(PersistenceError) {
    try lock.withLock { lock throws(PersistenceError) in
      switch lock {
      case .held: return
      case .released: throw .closed
      case .pending:
        if let fd = try Self.takeLock(lockPath, path: path, unlessReadOnly: false) { lock = .held(fd) }
      }
    }
  }

  /// Gives the file up; calling it again does nothing.
  func release() {
    let previous = lock.withLock { lock in
      defer { lock = .released }
      return lock
    }
    switch previous {
    case .released:
      return
    case .held(let fd):
      // Closing the descriptor drops the flock.
      close(fd)
    case .pending:
      break
    }
    _ = Self.claimed.withLock { $0.remove(path) }
  }
}
