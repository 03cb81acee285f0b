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

/// Checks, or creates, a state file's directory.
enum PersistenceDirectory {
  /// Checks that the directory `path` exists.
  ///
  /// - Throws: `.missingDirectory` when nothing is at `path` (or a
  ///   directory on the way to it is missing); `.io` when something else
  ///   than a directory is there (`ENOTDIR`) or it cannot be looked at.
  static func requireExisting(_ path: String) throws(PersistenceError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { throw .missingDirectory(path: path) }
      throw SystemError.io("stat", path)
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(operation: "stat", path: path, code: ENOTDIR) }
  }

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
