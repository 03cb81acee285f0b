import Foundation

/// A fresh directory for one test's files, removed when the test ends.
struct TemporaryDirectory {
  /// The directory.
  let url: URL

  /// Creates an empty directory under the system's temporary directory.
  ///
  /// Its path has no symbolic links (macOS's `/var` is one), so it reads as
  /// the paths persistence reports, which are resolved.
  init() throws {
    let made = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-examples-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
    guard let resolved = realpath(made.path, nil) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: made.path])
    }
    defer { free(resolved) }
    url = URL(fileURLWithPath: String(cString: resolved), isDirectory: true)
  }

  /// The path of a file in the directory.
  ///
  /// - Parameter name: The file's name.
  /// - Returns: Its path.
  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// The names of the files in the directory, sorted.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  /// Removes the directory and everything in it.
  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
