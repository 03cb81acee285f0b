import Foundation
@testable import Verge
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A write past the process's file-size limit (`RLIMIT_FSIZE`) raises
/// `SIGXFSZ`, whose default action ends the process before the write can
/// report `EFBIG`; a process that ignores the signal gets the typed error
/// instead (the Persistence article says so). Both run in a child process
/// with a 4 KiB limit.
final class PersistenceFileSizeLimitTests: XCTestCase {
  private static let fileVariable = "VERGE_PERSISTENCE_SIZE_LIMIT_FILE"
  private static let ignoreVariable = "VERGE_PERSISTENCE_IGNORE_SIGXFSZ"
  private static let passed = "file-size limit checks passed"

  func testAWritePastTheLimitIsReportedWhenSIGXFSZIsIgnored() throws {
    let directory = try PersistenceDirectoryFixture()
    let (status, output) = try runChildTest(
      "VergeTests.PersistenceFileSizeLimitTests/testChildWritesPastTheLimit",
      environment: [Self.fileVariable: directory.file().path, Self.ignoreVariable: "1"])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains(Self.passed), output)
    XCTAssertEqual(try readStateFile(directory.file(), as: [Int].self).value, [1])
    XCTAssertEqual(directory.names, ["saved.state", "saved.state.lock"])
  }

  func testAWritePastTheLimitEndsTheProcessByDefault() throws {
    let directory = try PersistenceDirectoryFixture()
    let (status, output) = try runChildTest(
      "VergeTests.PersistenceFileSizeLimitTests/testChildWritesPastTheLimit",
      environment: [Self.fileVariable: directory.file().path, "SWIFT_BACKTRACE": "enable=no"])
    XCTAssertEqual(status, SIGXFSZ, output)
    XCTAssertFalse(output.contains(Self.passed), output)
    // The file keeps the last state written whole.
    XCTAssertEqual(try readStateFile(directory.file(), as: [Int].self).value, [1])
  }

  /// The child: writes a small state, then one past the limit.
  func testChildWritesPastTheLimit() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.fileVariable] else {
      throw XCTSkip("runs only as the child process of the file-size limit tests")
    }
    if ProcessInfo.processInfo.environment[Self.ignoreVariable] != nil {
      // As the article shows:
      signal(SIGXFSZ, SIG_IGN)
    }
    // No core file when the signal ends the process.
    var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
    var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
    #if canImport(Glibc)
    XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore), 0)
    XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit), 0)
    #else
    XCTAssertEqual(setrlimit(RLIMIT_CORE, &noCore), 0)
    XCTAssertEqual(setrlimit(RLIMIT_FSIZE, &limit), 0)
    #endif
    let store = Store<[Int], Never>(initialState: [])
    let persistence = try store.persist(\.self, to: URL(fileURLWithPath: path), writeInterval: .seconds(3600))
    store.commit { $0.replace(with: [1]) }
    try persistence.flushSynchronously()
    store.commit { $0.replace(with: Array(0..<10_000)) }
    XCTAssertThrowsError(try persistence.flushSynchronously()) { error in
      guard case .io("write", _, EFBIG) = error as? PersistenceError else { return XCTFail("\(error)") }
    }
    XCTAssertEqual(store.state.count, 10_000)
    if testRun?.failureCount == 0 {
      try FileHandle.standardOutput.write(contentsOf: Data("\(Self.passed)\n".utf8))
    }
  }
}
