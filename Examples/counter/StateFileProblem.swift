import Foundation
import Verge

/// Why `--state-file PATH` cannot be used, said with the path as it was
/// typed.
///
/// counter does not create directories: a path whose directory does not exist
/// is refused (a typo in a directory name would otherwise leave the state
/// somewhere the user does not look).
enum StateFileProblem: Error, Equatable, CustomStringConvertible {
  /// The file's directory does not exist (or is not a directory).
  case noDirectory(path: String, directory: String)
  /// Something other than a file (a directory, a device, a FIFO, ...) is at
  /// the path; it is left untouched.
  case notAFile(path: String, kind: String)
  /// Persistence refused the file for another reason (another counter is
  /// using it, it cannot be read, ...).
  case unusable(path: String, PersistenceError)

  /// The persistence error `error` about `path`, said with the path as typed.
  init(_ error: PersistenceError, path: String) {
    if case .notARegularFile(_, let kind) = error {
      self = .notAFile(path: path, kind: kind)
    } else {
      self = .unusable(path: path, error)
    }
  }

  /// The URL of the file at `path`, once its directory is known to exist.
  ///
  /// - Parameter path: The path as typed, relative to the current directory or absolute.
  /// - Throws: `.noDirectory` when the file's directory does not exist.
  static func url(of path: String) throws(StateFileProblem) -> URL {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isDirectory)
    guard exists, isDirectory.boolValue else {
      let typed = path.hasSuffix("/") ? String(path.dropLast()) : path
      let directory = typed.lastIndex(of: "/").map { String(typed[..<$0]) } ?? "."
      throw .noDirectory(path: path, directory: directory.isEmpty ? "/" : directory)
    }
    return url
  }

  /// A sentence for standard error.
  var description: String {
    switch self {
    case .noDirectory(let path, let directory):
      return "the state file \(path) cannot be made: its directory \(directory) does not exist "
        + "(counter does not create directories)"
    case .notAFile(let path, let kind):
      return "the state file \(path) is \(kind), not a file"
    case .unusable(let path, let error):
      return "cannot use the state file \(path): \(error)"
    }
  }
}
