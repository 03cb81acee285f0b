import Dispatch
import Foundation
@testable import Verge
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Persistence uses regular files only: anything else at the state file's
/// path, at its lock file's or at a temporary file's name is refused with
/// `.notARegularFile` and left exactly as it was (never opened for writing,
/// moved, renamed, unlinked or replaced), and nothing there makes
/// `persist` block.
final class PersistenceFileKindTests: XCTestCase {
  // MARK: - At the state file's path

  func testADeviceNodeAtThePathIsRefusedAndLeftInPlace() throws {
    let directory = try PersistenceDirectoryFixture()
    let path: String
    if geteuid() == 0 {
      // Root may rename anything: use a device node of our own, a copy of
      // /dev/null's, so that a failure cannot harm the system's.
      path = directory.file("device").path
      var null = stat()
      XCTAssertEqual(stat("/dev/null", &null), 0)
      guard mknod(path, S_IFCHR | 0o666, null.st_rdev) == 0 else {
        throw XCTSkip("mknod failed (errno \(errno)): this system does not let root make device nodes")
      }
    } else {
      // Without root, /dev/null cannot be renamed or replaced.
      path = "/dev/null"
    }
    let before = try Identity(path)
    let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
    XCTAssertThrowsError(try store.persist(\.self, to: URL(fileURLWithPath: path))) { error in
      XCTAssertEqual(error as? PersistenceError, .notARegularFile(path: path, kind: "a character device"))
    }
    XCTAssertEqual(try Identity(path), before)
    XCTAssertEqual(store.state.count, 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"))
    if geteuid() == 0 { XCTAssertEqual(directory.names, ["device"]) }
  }

  func testAFIFOAtThePathIsRefusedWithoutBlocking() throws {
    let directory = try PersistenceDirectoryFixture()
    let path = directory.file().path
    XCTAssertEqual(mkfifo(path, 0o644), 0)
    let before = try Identity(path)
    let error = try persistWithinBound(to: path, releasing: path)
    XCTAssertEqual(error, .notARegularFile(path: path, kind: "a FIFO"))
    XCTAssertEqual(try Identity(path), before)
    XCTAssertEqual(directory.names, ["saved.state"])
  }

  func testADirectoryAtThePathIsRefusedAndLeftInPlace() throws {
    let directory = try PersistenceDirectoryFixture()
    let path = directory.file().path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    try Data("keep".utf8).write(to: directory.file().appendingPathComponent("inside"))
    let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
    // However the URL is spelled: with the slash that `URL(fileURLWithPath:)`
    // adds for a directory it finds, or without.
    for url in [URL(fileURLWithPath: path), URL(fileURLWithPath: path, isDirectory: false)] {
      XCTAssertThrowsError(try store.persist(\.self, to: url), url.absoluteString) { error in
        XCTAssertEqual(error as? PersistenceError, .notARegularFile(path: path, kind: "a directory"))
      }
    }
    XCTAssertEqual(directory.names, ["saved.state"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path), ["inside"])
    XCTAssertEqual(store.state.count, 1)
  }

  func testASocketAtThePathIsRefusedAndLeftInPlace() throws {
    let directory = try PersistenceDirectoryFixture()
    let path = directory.file().path
    let socket = try UnixSocket(boundAt: path)
    defer { socket.closeSocket() }
    let before = try Identity(path)
    let error = try persistWithinBound(to: path, releasing: nil)
    XCTAssertEqual(error, .notARegularFile(path: path, kind: "a socket"))
    XCTAssertEqual(try Identity(path), before)
    XCTAssertEqual(directory.names, ["saved.state"])
  }

  /// The rule: the directory may be reached through symbolic links, the
  /// file itself must not be one (a write would replace the link with a
  /// regular file and leave its target stale).
  func testASymbolicLinkAtThePathIsRefusedAndNeitherItNorItsTargetIsTouched() throws {
    let directory = try PersistenceDirectoryFixture()
    try writeStateFile(Notebook(count: 5), version: 1, to: directory.file("target.state"))
    let target = try Data(contentsOf: directory.file("target.state"))
    let cases = [("regular", "target.state"), ("dangling", "missing.state"), ("device", "/dev/null")]
    for (name, destination) in cases {
      let link = directory.file("\(name).state")
      try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: destination)
      let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
      XCTAssertThrowsError(try store.persist(\.self, to: link), name) { error in
        XCTAssertEqual(error as? PersistenceError, .notARegularFile(path: link.path, kind: "a symbolic link"), name)
      }
      XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), destination, name)
      XCTAssertEqual(store.state.count, 1, name)
    }
    XCTAssertEqual(try Data(contentsOf: directory.file("target.state")), target)
    XCTAssertEqual(directory.names, ["dangling.state", "device.state", "regular.state", "target.state"])
  }

  func testADirectoryReachedThroughASymbolicLinkIsUsed() throws {
    let directory = try PersistenceDirectoryFixture()
    let real = directory.file("real")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: directory.file("alias").path, withDestinationPath: "real")
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file("alias").appendingPathComponent("saved.state"))
    store.commit { $0.count = 3 }
    try persistence.close()
    XCTAssertEqual(try readStateFile(real.appendingPathComponent("saved.state"), as: Notebook.self).value.count, 3)
  }

  // MARK: - Beside it

  func testALockFileThatIsNotARegularFileIsRefusedAndLeftInPlace() throws {
    let directory = try PersistenceDirectoryFixture()
    try writeStateFile(Notebook(count: 5), version: 1, to: directory.file("elsewhere"))
    let elsewhere = try Data(contentsOf: directory.file("elsewhere"))
    let lock = directory.file("saved.state.lock").path
    let kinds: [(String, () throws -> Void)] = [
      ("a symbolic link", { try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: "elsewhere") }),
      ("a symbolic link", { try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: "nowhere") }),
      ("a FIFO", { XCTAssertEqual(mkfifo(lock, 0o644), 0) }),
      ("a directory", { try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false) }),
    ]
    for (kind, make) in kinds {
      try make()
      let before = try Identity(lock)
      let error = try persistWithinBound(to: directory.file().path, releasing: lock)
      XCTAssertEqual(error, .notARegularFile(path: lock, kind: kind))
      XCTAssertEqual(try Identity(lock), before, kind)
      XCTAssertEqual(directory.names, ["elsewhere", "saved.state.lock"], kind)
      try FileManager.default.removeItem(atPath: lock)
    }
    XCTAssertEqual(try Data(contentsOf: directory.file("elsewhere")), elsewhere)
    // With the lock file out of the way, the same store persists.
    let store = Store<Notebook, Never>(initialState: Notebook())
    XCTAssertNoThrow(try store.persist(\.self, to: directory.file()).close())
  }

  func testAFileReplacedByAFIFOAfterRestoringIsNotReplacedByAWrite() throws {
    let directory = try PersistenceDirectoryFixture()
    let path = directory.file().path
    try writeStateFile(Notebook(count: 5), version: 1, to: directory.file())
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: .seconds(3600))
    XCTAssertEqual(store.state.count, 5)
    XCTAssertEqual(unlink(path), 0)
    XCTAssertEqual(mkfifo(path, 0o644), 0)
    let before = try Identity(path)
    store.commit { $0.count = 6 }
    XCTAssertThrowsError(try persistence.flushSynchronously()) { error in
      XCTAssertEqual(error as? PersistenceError, .notARegularFile(path: path, kind: "a FIFO"))
    }
    XCTAssertEqual(persistence.lastWriteError, .notARegularFile(path: path, kind: "a FIFO"))
    XCTAssertEqual(try Identity(path), before)
    XCTAssertEqual(store.state.count, 6)
    XCTAssertEqual(directory.names, ["saved.state", "saved.state.lock"], "the temporary file is removed")
    // Once a regular file (or nothing) is back, the next write goes through.
    XCTAssertEqual(unlink(path), 0)
    try persistence.close()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 6)
  }

  func testATemporaryFileNameTakenByASymbolicLinkIsNotFollowed() throws {
    let directory = try PersistenceDirectoryFixture()
    try Data("keep".utf8).write(to: directory.file("elsewhere"))
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: .seconds(3600))
    // The name the first write's temporary file gets.
    let temporary = directory.file(".saved.state.tmp-\(getpid())-1").path
    try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: "elsewhere")
    store.commit { $0.count = 1 }
    XCTAssertThrowsError(try persistence.flushSynchronously()) { error in
      XCTAssertEqual(error as? PersistenceError, .io(operation: "open", path: temporary, code: EEXIST))
    }
    XCTAssertEqual(try Data(contentsOf: directory.file("elsewhere")), Data("keep".utf8))
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: temporary), "elsewhere")
    // The next write takes the next name.
    try persistence.flushSynchronously()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 1)
    try persistence.close()
  }

  func testOnlyRegularFilesAreRemovedAsStaleTemporaryFiles() throws {
    let directory = try PersistenceDirectoryFixture()
    try Data("partial".utf8).write(to: directory.file(".saved.state.tmp-1-1"))
    XCTAssertEqual(mkfifo(directory.file(".saved.state.tmp-1-2").path, 0o644), 0)
    try FileManager.default.createSymbolicLink(
      atPath: directory.file(".saved.state.tmp-1-3").path, withDestinationPath: "elsewhere")
    let store = Store<Notebook, Never>(initialState: Notebook())
    try store.persist(\.self, to: directory.file()).close()
    XCTAssertEqual(directory.names, [".saved.state.tmp-1-2", ".saved.state.tmp-1-3", "saved.state.lock"])
  }

  // MARK: - Helpers

  /// Runs `persist` to `path` on a thread of its own and returns what it
  /// threw. A `persist` that blocks fails the test after a bound, instead
  /// of hanging the run: the FIFO at `releasing` is then opened for
  /// writing, which lets a reader blocked in `open` go.
  private func persistWithinBound(
    to path: String, releasing fifo: String?, file: StaticString = #filePath, line: UInt = #line
  ) throws -> PersistenceError? {
    let result = Recorder<PersistenceError?>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
      do throws(PersistenceError) {
        try store.persist(\.self, to: URL(fileURLWithPath: path)).close()
        result.append(nil)
      } catch {
        result.append(error)
      }
      XCTAssertEqual(store.state.count, 1)
      done.signal()
    }
    thread.start()
    if done.wait(timeout: .now() + 20) == .timedOut {
      XCTFail("persist blocked for 20 seconds", file: file, line: line)
      if let fifo {
        // Closed at once, so that the reader's `read` then ends too.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        done.wait()
      }
    }
    return result.values.first ?? nil
  }
}

/// What identifies a directory entry: the same inode, kind and device
/// number means nothing replaced it.
private struct Identity: Equatable {
  let device: UInt64
  let inode: UInt64
  let mode: UInt32
  let deviceNumber: UInt64

  init(_ path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    mode = UInt32(info.st_mode)
    deviceNumber = UInt64(info.st_rdev)
  }
}

/// A Unix domain socket bound at a path (which makes a socket file there).
private struct UnixSocket {
  let descriptor: Int32

  init(boundAt path: String) throws {
    #if canImport(Darwin)
    descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #else
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw POSIXError(.ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
    }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard status == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
  }

  func closeSocket() {
    close(descriptor)
  }
}
