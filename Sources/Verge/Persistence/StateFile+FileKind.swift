#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

/// Persistence touches regular files only: the state file, its lock file
/// and its temporary files. Anything else at one of those paths (a
/// directory, a device, a FIFO, a socket, a symbolic link) is refused with
/// `.notARegularFile` and never opened for writing, moved, renamed, unlinked
/// or replaced.
///
/// The rule for symbolic links: the directory may be reached through them
/// (its path is resolved once, when persistence is attached); the file's own
/// name must not be one, since a write renames a new file over that name and
/// would replace the link rather than update what it points at.
extension StateFile {
  /// What `mode` describes, in words; `nil` for a regular file.
  static func kind(of mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a directory"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "a special file"
    }
  }

  /// Whether a regular file is at `path` (`false` for nothing there).
  ///
  /// - Throws: `.notARegularFile` when something else is there.
  @discardableResult
  static func requireRegularFile(at path: String) throws(PersistenceError) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0 else { return false }
    if let kind = kind(of: info.st_mode) { throw .notARegularFile(path: path, kind: kind) }
    return true
  }

  /// Opens the regular file at `path` with `flags` (`O_CREAT` creates it),
  /// without following a symbolic link at `path` and without blocking on
  /// whatever is there, and checks what it opened.
  ///
  /// - Returns: The descriptor (in blocking mode), or `nil` when nothing is
  ///   at `path` and `flags` does not create it.
  /// - Throws: `.notARegularFile`, or `.io` for a failed call.
  static func openRegularFile(_ path: String, flags: Int32) throws(PersistenceError) -> Int32? {
    // Look first, so that a device is not even opened.
    try requireRegularFile(at: path)
    let fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
    if fd < 0 {
      let code = errno
      if code == ENOENT, flags & O_CREAT == 0 { return nil }
      // Something else may have been put there meanwhile.
      try requireRegularFile(at: path)
      throw .io(operation: "open", path: path, code: code)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let error = SystemError.io("fstat", path)
      close(fd)
      throw error
    }
    if let kind = kind(of: info.st_mode) {
      close(fd)
      throw .notARegularFile(path: path, kind: kind)
    }
    let status = fcntl(fd, F_GETFL)
    if status >= 0 { _ = fcntl(fd, F_SETFL, status & ~O_NONBLOCK) }
    return fd
  }
}
