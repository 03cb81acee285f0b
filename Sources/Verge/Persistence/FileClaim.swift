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
final class FileClaim: Sendable {
  /// The canonical paths claimed in this process.
  private static let claimed = LockedBox<Set<String>>([])

  /// The state file's canonical path.
  let path: String
  private let lock: LockedBox<Int32?>

  private init(path: String, lockDescriptor: Int32) {
    self.path = path
    lock = LockedBox(lockDescriptor)
  }

  deinit {
    release()
  }

  /// Claims the state file at `path` (canonical: see `canonicalPath`).
  ///
  /// - Throws: `PersistenceError.fileInUse` when a store of this or another
  ///   process holds it; `.io` when the lock file cannot be opened.
  static func acquire(_ path: String) throws(PersistenceError) -> FileClaim {
    let inserted = claimed.withLock { $0.insert(path).inserted }
    guard inserted else { throw .fileInUse(path: path) }
    let lockPath = path + ".lock"
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      let error = SystemError.io("open", lockPath)
      claimed.withLock { _ = $0.remove(path) }
      throw error
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(fd)
      claimed.withLock { _ = $0.remove(path) }
      if code == EWOULDBLOCK { throw .fileInUse(path: path) }
      throw .io(operation: "flock", path: lockPath, code: code)
    }
    return FileClaim(path: path, lockDescriptor: fd)
  }

  /// Gives the file up; calling it again does nothing.
  func release() {
    let fd = lock.withLock { fd in
      defer { fd = nil }
      return fd
    }
    guard let fd else { return }
    // Closing the descriptor drops the flock.
    close(fd)
    _ = Self.claimed.withLock { $0.remove(path) }
  }

  /// The absolute path of `path` with its directory's symbolic links
  /// resolved, so that two spellings of one file claim the same thing.
  /// The directory must exist.
  static func canonicalPath(_ path: String) throws(PersistenceError) -> String {
    let (directory, name) = StateFile.split(path)
    guard let resolved = realpath(directory, nil) else { throw SystemError.io("realpath", directory) }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return base == "/" ? "/\(name)" : "\(base)/\(name)"
  }
}
