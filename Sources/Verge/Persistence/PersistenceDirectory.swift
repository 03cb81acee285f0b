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
