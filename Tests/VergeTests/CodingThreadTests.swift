import Foundation
@testable import Verge
import VergeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Persistence never waits for a coding thread that could not start: when
/// the address space or the thread limit is reached, restoring, flushing
/// and closing code on the calling thread and lose nothing. Each case runs
/// in a child process (a fresh one, so that no coding thread was kept from
/// an earlier test) that lowers its own limit; a child that hangs is killed
/// and fails its test, not the test run.
final class CodingThreadTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_CODING_THREAD_CHILD")
  private static let passed = "coding thread checks passed"
  /// Far more than a child needs (it takes well under a second): only a
  /// hang reaches it.
  private static let timeout = 30

  private func expectChildPasses(_ scenario: String) throws {
    let outcome = try Self.child.run(
      test: "VergeTests.CodingThreadTests/testChild\(scenario)", scenario: scenario, timeout: Self.timeout)
    XCTAssertFalse(outcome.hung, "the child hung and was killed after \(Self.timeout) s:\n\(outcome.stdout)\(outcome.stderr)")
    XCTAssertTrue(outcome.succeeded, "status \(outcome.status):\n\(outcome.stdout)\(outcome.stderr)")
    XCTAssertTrue(outcome.stdout.contains(Self.passed), outcome.stdout + outcome.stderr)
  }

  private func onlyAsChild(_ scenario: String) throws {
    guard Self.child.isRunning(scenario) else {
      throw XCTSkip("runs only as the child process of a CodingThreadTests test")
    }
  }

  // MARK: - Parents

  func testPersistenceWorksUnderAnAddressSpaceLimitTooLowForTheCodingThread() throws {
    #if os(Linux)
    if isThreadSanitized {
      // The sanitizer maps its shadow memory as the process grows, which
      // the lowered limit refuses as well.
      throw XCTSkip("skipped under the Thread Sanitizer: its shadow memory is address space too")
    }
    try expectChildPasses("AddressSpaceLimit")
    #else
    throw XCTSkip("RLIMIT_AS is enforced on Linux only")
    #endif
  }

  func testPersistenceWorksWhenNoThreadCanStart() throws {
    try expectChildPasses("ThreadStartFails")
  }

  func testPersistenceWorksAtTheThreadLimit() throws {
    guard geteuid() != 0 else {
      throw XCTSkip("RLIMIT_NPROC does not bind root: testPersistenceWorksWhenNoThreadCanStart covers this")
    }
    try expectChildPasses("ThreadLimit")
  }

  func testFlushingAndClosingDoNotWaitForABusyWriterQueue() throws {
    try expectChildPasses("BusyWriterQueue")
  }

  func testAsyncFlushDoesNotWaitForABusyWriterQueueOrAThread() throws {
    try expectChildPasses("AsyncFlush")
    try expectChildPasses("AsyncFlushWithoutAThread")
  }

  func testOneCodingThreadServesEveryRestoreAndWrite() throws {
    try expectChildPasses("OneThread")
  }

  // MARK: - Children

  /// The case: a process whose address-space limit leaves room for
  /// less than the coding thread's 16 MiB stack.
  func testChildAddressSpaceLimit() throws {
    try onlyAsChild("AddressSpaceLimit")
    #if os(Linux)
    try runUnderLimit {
      let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
      let pages = try XCTUnwrap(statm.split(separator: " ").first.flatMap { Int($0) })
      let used = rlim_t(pages * sysconf(Int32(_SC_PAGESIZE)))
      // Room for the work itself, not for a 16 MiB stack.
      XCTAssertEqual(lowerLimit(__rlimit_resource_t(RLIMIT_AS.rawValue), to: used + (8 << 20)), 0)
    }
    #endif
  }

  /// Every start of a coding thread fails (as `pthread_create` does at a
  /// container's pid limit).
  func testChildThreadStartFails() throws {
    try onlyAsChild("ThreadStartFails")
    try runUnderLimit {
      CodingThread.startFailsForTesting.store(true, ordering: .relaxed)
    }
  }

  /// The user's thread limit (`ulimit -u`) is reached.
  func testChildThreadLimit() throws {
    try onlyAsChild("ThreadLimit")
    try runUnderLimit {
      #if canImport(Glibc)
      XCTAssertEqual(lowerLimit(__rlimit_resource_t(__RLIMIT_NPROC.rawValue), to: 1), 0)
      #else
      XCTAssertEqual(lowerLimit(RLIMIT_NPROC, to: 1), 0)
      #endif
    }
  }

  /// The writer queue is busy for good, as when its scheduled write waits
  /// for a thread that Dispatch cannot start (at a thread limit, Dispatch
  /// retries forever): `flushSynchronously` and `close` write all the same.
  func testChildBusyWriterQueue() throws {
    try onlyAsChild("BusyWriterQueue")
    let directory = try PersistenceDirectoryFixture()
    let store = Store<ProfileState, Never>(initialState: ProfileState())
    let persistence = try store.persist(\.preferences, to: directory.file(), writeInterval: .seconds(3600))
    let release = occupyWriterQueue(of: persistence)
    store.commit { $0.preferences.fontSize = 20 }
    try persistence.flushSynchronously()
    XCTAssertEqual(try readStateFile(directory.file(), as: Preferences.self).value.fontSize, 20)
    store.commit { $0.preferences.theme = "dark" }
    try persistence.close()
    XCTAssertEqual(
      try readStateFile(directory.file(), as: Preferences.self).value, Preferences(theme: "dark", fontSize: 20))
    XCTAssertThrowsError(try persistence.close()) { error in
      XCTAssertEqual(error as? PersistenceError, .closed)
    }
    release.signal()
    reportPassed()
  }

  /// The writer queue is busy for good (as at a thread limit, where its
  /// scheduled write waits for a thread Dispatch cannot start): an async
  /// `flush()` writes all the same, on a coding thread, one started for it
  /// or kept; and on its caller's thread when no thread can be started.
  func testChildAsyncFlush() async throws {
    try onlyAsChild("AsyncFlush")
    let directory = try PersistenceDirectoryFixture()
    let store = Store<ProfileState, Never>(initialState: ProfileState())
    let persistence = try store.persist(\.preferences, to: directory.file(), writeInterval: .seconds(3600))
    let release = occupyWriterQueue(of: persistence)
    defer { release.signal() }
    let threadsBefore = CodingThread.threadsStarted.load(ordering: .relaxed)
    for size in [20, 21] {
      store.commit { $0.preferences.fontSize = size }
      try await persistence.flush()
      XCTAssertEqual(try readStateFile(directory.file(), as: Preferences.self).value.fontSize, size)
    }
    // The write's coding ran on the flush's own coding thread; the second
    // flush found that thread kept.
    XCTAssertLessThanOrEqual(CodingThread.threadsStarted.load(ordering: .relaxed) - threadsBefore, 1)
    XCTAssertEqual(CodingThread.callsRunOnCaller.load(ordering: .relaxed), 0)
    reportPassed()
  }

  /// No thread can be started and the writer queue is busy for good: an
  /// async `flush()` writes on its caller's thread.
  func testChildAsyncFlushWithoutAThread() async throws {
    try onlyAsChild("AsyncFlushWithoutAThread")
    CodingThread.startFailsForTesting.store(true, ordering: .relaxed)
    let directory = try PersistenceDirectoryFixture()
    let store = Store<ProfileState, Never>(initialState: ProfileState())
    let persistence = try store.persist(\.preferences, to: directory.file(), writeInterval: .seconds(3600))
    let release = occupyWriterQueue(of: persistence)
    defer { release.signal() }
    let onCallerBefore = CodingThread.callsRunOnCaller.load(ordering: .relaxed)
    store.commit { $0.preferences.theme = "dark" }
    try await persistence.flush()
    XCTAssertEqual(try readStateFile(directory.file(), as: Preferences.self).value.theme, "dark")
    XCTAssertGreaterThan(CodingThread.callsRunOnCaller.load(ordering: .relaxed), onCallerBefore)
    XCTAssertEqual(CodingThread.threadsStarted.load(ordering: .relaxed), 0)
    reportPassed()
  }

  /// Restores, writes and closes of several stores, one after another,
  /// start one coding thread between them, and a store that went away is
  /// not kept alive by it.
  func testChildOneThread() throws {
    try onlyAsChild("OneThread")
    let directory = try PersistenceDirectoryFixture()
    weak var firstCore: StateCore<ProfileState, Never>?
    for round in 0..<3 {
      let store = Store<ProfileState, Never>(initialState: ProfileState())
      if round == 0 { firstCore = store.core }
      let persistence = try store.persist(\.preferences, to: directory.file(), writeInterval: .seconds(3600))
      XCTAssertEqual(store.state.preferences.fontSize, 12 + round * 5)
      for _ in 0..<5 {
        store.commit { $0.preferences.fontSize += 1 }
        try persistence.flushSynchronously()
      }
      try persistence.close()
    }
    XCTAssertEqual(try readStateFile(directory.file(), as: Preferences.self).value.fontSize, 27)
    XCTAssertEqual(CodingThread.threadsStarted.load(ordering: .relaxed), 1)
    XCTAssertEqual(CodingThread.callsRunOnCaller.load(ordering: .relaxed), 0)
    XCTAssertNil(firstCore, "the kept coding thread holds a store's state core")
    reportPassed()
  }

  /// Restores a file, commits, flushes, commits again and closes after
  /// `limit` lowered a limit of this process; checks that each coding call
  /// ran on the calling thread and that the file holds every change.
  private func runUnderLimit(_ limit: () throws -> Void) throws {
    let directory = try PersistenceDirectoryFixture()
    try writeStateFile(Preferences(theme: "dark", fontSize: 13), version: 1, to: directory.file())
    XCTAssertEqual(CodingThread.threadsStarted.load(ordering: .relaxed), 0)
    try limit()

    let store = Store<ProfileState, Never>(initialState: ProfileState())
    let persistence = try store.persist(\.preferences, to: directory.file(), writeInterval: .seconds(3600))
    XCTAssertEqual(persistence.restoreOutcome, .restored(version: 1))
    XCTAssertEqual(store.state.preferences, Preferences(theme: "dark", fontSize: 13))
    store.commit { $0.preferences.fontSize = 14 }
    try persistence.flushSynchronously()
    XCTAssertEqual(try readStateFile(directory.file(), as: Preferences.self).value.fontSize, 14)
    store.commit { $0.preferences.theme = "sepia" }
    try persistence.close()
    XCTAssertEqual(
      try readStateFile(directory.file(), as: Preferences.self).value, Preferences(theme: "sepia", fontSize: 14))
    // The restore, the flush and the close's write: none had a thread.
    XCTAssertEqual(CodingThread.threadsStarted.load(ordering: .relaxed), 0)
    XCTAssertEqual(CodingThread.callsRunOnCaller.load(ordering: .relaxed), 3)
    reportPassed()
  }

  /// Lowers the soft limit of `resource` to `value`, keeping the hard one.
  ///
  /// - Returns: What `setrlimit` returned.
  #if canImport(Glibc)
  private func lowerLimit(_ resource: __rlimit_resource_t, to value: rlim_t) -> Int32 {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { return -1 }
    limit.rlim_cur = value
    return setrlimit(resource, &limit)
  }
  #else
  private func lowerLimit(_ resource: Int32, to value: rlim_t) -> Int32 {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { return -1 }
    limit.rlim_cur = value
    return setrlimit(resource, &limit)
  }
  #endif

  /// Keeps `persistence`'s writer queue busy until the returned semaphore
  /// is signalled, as a scheduled write waiting for a thread Dispatch
  /// cannot start would.
  private func occupyWriterQueue(of persistence: FilePersistence) -> DispatchSemaphore {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    persistence.engine.queue.async {
      started.signal()
      release.wait()
    }
    started.wait()
    return release
  }

  private func reportPassed() {
    if testRun?.failureCount == 0 {
      try? FileHandle.standardOutput.write(contentsOf: Data("\(Self.passed)\n".utf8))
    }
  }
}
