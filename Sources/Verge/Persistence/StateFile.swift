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

/// The state file on disk: its format, and the system calls that read it,
/// replace it atomically and move it aside.
///
/// The format is a short text header and the payload (the value as JSON):
///
/// ```
/// verge-state 1
/// schema-version: 2
/// byte-count: 1234
/// checksum: fnv1a64:9c2f0e4d1a7b3c55
///
/// {"theme":"dark", ...}
/// ```
///
/// The byte count and checksum let a reader refuse a file that is not
/// exactly what a writer wrote (a truncated copy, a damaged disk block, a
/// hand edit) instead of decoding part of it.
enum StateFile {
  static let magic = "verge-state 1"

  // MARK: - Format

  /// The payload for `value`: JSON with sorted keys, so that equal values
  /// give equal bytes (as far as `value`'s own encoding is stable: a `Set`
  /// or a `Dictionary` whose keys are neither strings nor integers encodes
  /// in an order that changes between runs).
  static func encode(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(value)
  }

  /// The file's bytes for `payload` written with schema `version`.
  static func frame(_ payload: Data, version: Int) -> Data {
    let header =
      "\(magic)\nschema-version: \(version)\nbyte-count: \(payload.count)\n"
      + "checksum: fnv1a64:\(checksum(payload))\n\n"
    var data = Data(header.utf8)
    data.append(payload)
    return data
  }

  /// Reads a file's bytes back into its schema version and payload.
  ///
  /// - Throws: `PersistenceError.damaged` when anything is off.
  static func unframe(_ data: Data) throws(PersistenceError) -> (version: Int, payload: Data) {
    // The header ends at the first empty line; it is short, so look for it
    // in the first few hundred bytes only.
    let separator = Data("\n\n".utf8)
    let searchEnd = data.index(data.startIndex, offsetBy: min(data.count, 512))
    guard let end = data.range(of: separator, in: data.startIndex..<searchEnd) else {
      throw .damaged(reason: data.isEmpty ? "the file is empty" : "no Verge state header")
    }
    let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count == 4, lines[0] == magic else {
      throw .damaged(reason: "no Verge state header")
    }
    func field(_ line: Substring, _ name: String) throws(PersistenceError) -> Substring {
      let prefix = name + ": "
      guard line.hasPrefix(prefix) else { throw .damaged(reason: "the header has no \(name)") }
      return line.dropFirst(prefix.count)
    }
    // `persist` refuses a negative version, so no file has one.
    guard let version = Int(try field(lines[1], "schema-version")), version >= 0 else {
      throw .damaged(reason: "the schema version is not a number of 0 or more")
    }
    guard let byteCount = Int(try field(lines[2], "byte-count")), byteCount >= 0 else {
      throw .damaged(reason: "the byte count is not a number")
    }
    let sum = try field(lines[3], "checksum")
    let payload = data[end.upperBound...]
    guard payload.count == byteCount else {
      throw .damaged(reason: "the payload has \(payload.count) bytes where the header says \(byteCount)")
    }
    guard sum == "fnv1a64:" + checksum(payload) else {
      throw .damaged(reason: "the checksum does not match the payload")
    }
    return (version, Data(payload))
  }

  /// FNV-1a, 64 bits: enough to notice damage, not a defence against
  /// someone forging a file.
  /// Returns it as 16 hexadecimal digits.
  static func checksum(_ data: Data) -> String {
    let hash = data.withUnsafeBytes { bytes in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      }
      return hash
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  // MARK: - Paths

  /// The directory part of `path`, and its last component.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  /// The prefix of the temporary files written next to `name`.
  static func temporaryPrefix(for name: String) -> String {
    ".\(name).tmp-"
  }

  // MARK: - Reading

  /// The file's whole contents, or `nil` when there is no file.
  ///
  /// - Throws: `.notARegularFile` when something else is at `path`; `.io`
  ///   when it cannot be read.
  static func contents(of path: String) throws(PersistenceError) -> Data? {
    guard let fd = try openRegularFile(path, flags: O_RDONLY) else { return nil }
    defer { close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError.io("read", path)
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  // MARK: - Writing

  /// Replaces the file at `path` with `data` so that, whatever moment the
  /// process or the machine stops at, the path holds either the old file or
  /// the new one, whole.
  ///
  /// Writes a temporary file in the same directory (so that the rename
  /// stays on one file system), syncs it to the disk, renames it over the
  /// old file, and syncs the directory so the rename itself is durable.
  static func replace(_ path: String, with data: Data, temporaryNumber: UInt64) throws(PersistenceError) {
    let (directory, name) = split(path)
    let temporary = "\(directory)/\(temporaryPrefix(for: name))\(getpid())-\(temporaryNumber)"
    // A new name only: whatever is already there (a link planted at a name
    // one can guess, say) is neither followed nor truncated.
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw SystemError.io("open", temporary) }
    var written = false
    defer { if !written { unlink(temporary) } }
    do throws(PersistenceError) {
      let failure = data.withUnsafeBytes { bytes -> Int32? in
        var offset = 0
        while offset < bytes.count {
          let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
          if count < 0 {
            if errno == EINTR { continue }
            return errno
          }
          offset += count
        }
        return nil
      }
      if let failure { throw .io(operation: "write", path: temporary, code: failure) }
      // Only a regular file is replaced, and the new one keeps its
      // permissions.
      var existing = stat()
      if lstat(path, &existing) == 0 {
        if let kind = kind(of: existing.st_mode) { throw .notARegularFile(path: path, kind: kind) }
        if fchmod(fd, existing.st_mode & 0o7777) != 0 { throw SystemError.io("fchmod", temporary) }
      }
      // To the disk: on Darwin `fsync` leaves it in the drive's cache.
      #if canImport(Darwin)
      let synced = fcntl(fd, F_FULLFSYNC) == 0 || fsync(fd) == 0
      #else
      let synced = fsync(fd) == 0
      #endif
      guard synced else { throw SystemError.io("fsync", temporary) }
    } catch {
      close(fd)
      throw error
    }
    guard close(fd) == 0 else { throw SystemError.io("close", temporary) }
    guard rename(temporary, path) == 0 else { throw SystemError.io("rename", path) }
    written = true
    try syncDirectory(directory)
  }

  /// Makes a rename in `directory` durable.
  static func syncDirectory(_ directory: String) throws(PersistenceError) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError.io("open", directory) }
    defer { close(fd) }
    // Some file systems refuse to sync a directory; the rename is then as
    // durable as they make it.
    if fsync(fd) != 0, errno != EINVAL, errno != EBADF {
      throw SystemError.io("fsync", directory)
    }
  }

  /// Deletes temporary files that a writer killed mid-write left next to
  /// `path` (regular files only). Call only while holding the file's lock.
  static func removeStaleTemporaries(of path: String) {
    let (directory, name) = split(path)
    let prefix = temporaryPrefix(for: name)
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    for entry in entries where entry.hasPrefix(prefix) {
      let stale = "\(directory)/\(entry)"
      if (try? requireRegularFile(at: stale)) == true { unlink(stale) }
    }
  }

  /// Renames the regular file at `path` to a name of its own next to it,
  /// never replacing an existing file, and returns the new path.
  ///
  /// - Throws: `.notARegularFile` when something else is at `path` now.
  static func moveAside(_ path: String) throws(PersistenceError) -> String {
    guard try requireRegularFile(at: path) else { throw .io(operation: "rename", path: path, code: ENOENT) }
    let stamp = Int(Date().timeIntervalSince1970)
    for attempt in 0..<1000 {
      let candidate = attempt == 0 ? "\(path).refused-\(stamp)" : "\(path).refused-\(stamp)-\(attempt)"
      // link fails when the name exists, so nothing is ever overwritten.
      if link(path, candidate) == 0 {
        guard unlink(path) == 0 else { throw SystemError.io("unlink", path) }
        try syncDirectory(split(path).directory)
        return candidate
      }
      switch errno {
      case EEXIST:
        continue
      case EPERM, ENOTSUP, EXDEV, EMLINK:
        // No hard links on this file system: rename to a name that is free
        // (the file's lock keeps other stores of Verge away meanwhile).
        if access(candidate, F_OK) == 0 { continue }
        guard rename(path, candidate) == 0 else { throw SystemError.io("rename", path) }
        try syncDirectory(split(path).directory)
        return candidate
      default:
        throw SystemError.io("link", path)
      }
    }
    throw .io(operation: "rename", path: path, code: EEXIST)
  }
}
