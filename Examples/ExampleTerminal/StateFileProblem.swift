import Foundation
import Verge

/// Why `--state-file PATH` cannot be used, said with the path as it was
/// typed.
///
/// The examples do not create directories: a path whose directory does not
/// exist is refused (a typo in a directory name would otherwise leave the
/// state somewhere the user does not look).
package enum StateFileProblem: Error, Equatable, CustomStringConvertible {
  /// The file's directory does not exist (or is not a directory); `program`
  /// is the example's name, for the message.
  case noDirectory(path: String, directory: String, program: String)
  /// Something other than a file (a directory, a device, a FIFO, ...) is at
  /// the path; it is left untouched.
  case notAFile(path: String, kind: String)
  /// Persistence refused the file for another reason (another copy of the
  /// program is using it, it cannot be read, ...).
  case unusable(path: String, PersistenceError)

  /// The persistence error `error` about `path`, said with the path as typed.
  package init(_ error: PersistenceError, path: String) {
    if case .notARegularFile(_, let kind) = error {
      self = .notAFile(path: path, kind: kind)
    } else {
      self = .unusable(path: path, error)
    }
  }

  /// The URL of the file at `path`, once its directory is known to exist.
  ///
  /// - Parameters:
  ///   - path: The path as typed, relative to the current directory or absolute.
  ///   - program: The example's name, for the message.
  /// - Throws: `.noDirectory` when the file's directory does not exist.
  package static func url(of path: String, program: String) throws(StateFileProblem) -> URL {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isDirectory)
    guard exists, isDirectory.boolValue else {
      let typed = path.hasSuffix("/") ? String(path.dropLast()) : path
      let directory = typed.lastIndex(of: "/").map { String(typed[..<$0]) } ?? "."
      throw .noDirectory(path: path, directory: directory.isEmpty ? "/" : directory, program: program)
    }
    return url
  }

  /// A sentence for standard error.
  package var description: String {
    switch self {
    case .noDirectory(let path, let directory, let program):
      return "the state file \(path) cannot be made: its directory \(directory) does not exist "
        + "(\(program) does not create directories)"
    case .notAFile(let path, let kind):
      return "the state file \(path) is \(kind), not a file"
    case .unusable(let path, let error):
      return "cannot use the state file \(path): \(error)"
    }
  }
}
