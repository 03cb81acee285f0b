import Foundation
@testable import Verge
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A state file in a directory the process cannot write to is restored;
/// writes then fail with a typed error, and the store keeps every change.
///
/// The permission bits of a directory do not stop root, so the checks run
/// in a child process (this test binary, running only `testChildReadOnly`)
/// that first gives up root, when it has it, for the unprivileged user
/// `nobody`.
final class PersistenceReadOnlyTests: XCTestCase {
  private static let directoryVariable = "VERGE_PERSISTENCE_READ_ONLY_DIRECTORY"
  private static let passed = "read-only checks passed"

  func testAStateFileInAReadOnlyDirectoryIsRestoredWithoutALockFile() throws {
    try checkReadOnly(withLockFile: false)
  }

  func testAStateFileInAReadOnlyDirectoryIsRestoredWithALockFileLeftBefore() throws {
    try checkReadOnly(withLockFile: true)
  }

  private func checkReadOnly(withLockFile: Bool) throws {
    let fixture = try PersistenceDirectoryFixture()
    let directory = fixture.file("read-only")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    try writeStateFile(Notebook(count: 5, names: ["a"]), version: 1, to: directory.appendingPathComponent("saved.state"))
    if withLockFile {
      try Data().write(to: directory.appendingPathComponent("saved.state.lock"))
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) }

    let (status, output) = try runChildTest(
      "VergeTests.PersistenceReadOnlyTests/testChildReadOnly", environment: [Self.directoryVariable: directory.path])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains(Self.passed), output)
    // Nothing in the directory changed.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), names)
    XCTAssertEqual(
      try readStateFile(directory.appendingPathComponent("saved.state"), as: Notebook.self).value,
      Notebook(count: 5, names: ["a"]))
  }

  /// The child: restores from the read-only directory, then commits and
  /// tries to write.
  func testChildReadOnly() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.directoryVariable] else {
      throw XCTSkip("runs only as the child process of the read-only tests")
    }
    if geteuid() == 0 {
      // nobody: permission bits apply to it.
      guard setgid(65534) == 0, setuid(65534) == 0 else {
        return XCTFail("could not give up root (errno \(errno))")
      }
    }
    guard access(path, W_OK) != 0 else {
      return XCTFail("\(path) is writable: the test cannot check a read-only directory")
    }
    let file = URL(fileURLWithPath: path).appendingPathComponent("saved.state")
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: file, writeInterval: .seconds(3600))
    XCTAssertEqual(persistence.restoreOutcome, .restored(version: 1))
    XCTAssertEqual(store.state.current, Notebook(count: 5, names: ["a"]))

    store.commit { $0.count = 6 }
    XCTAssertThrowsError(try persistence.flushSynchronously()) { error in
      guard case .io(_, _, let code) = error as? PersistenceError, [EACCES, EROFS, EPERM].contains(code) else {
        return XCTFail("\(error)")
      }
    }
    XCTAssertNotNil(persistence.lastWriteError)
    XCTAssertEqual(store.state.current, Notebook(count: 6, names: ["a"]))
    // A second store of this process still cannot take the file.
    let second = Store<Notebook, Never>(initialState: Notebook())
    XCTAssertThrowsError(try second.persist(\.self, to: file)) { error in
      XCTAssertEqual(error as? PersistenceError, .fileInUse(path: file.path))
    }
    XCTAssertThrowsError(try persistence.close())
    XCTAssertEqual(store.state.current, Notebook(count: 6, names: ["a"]))
    if testRun?.failureCount == 0 {
      try FileHandle.standardOutput.write(contentsOf: Data("\(Self.passed)\n".utf8))
    }
  }
}
