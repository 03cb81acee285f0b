import Foundation
@testable import Verge
import VergeTestSupport
import XCTest

/// A writer killed at any moment leaves the old state or the new one on
/// disk, never a mix: a child process (this same test binary, running only
/// `testChildWriter`) writes states without pause, the parent kills it with
/// SIGKILL at random moments, and after each kill loads the file.
final class PersistenceCrashTests: XCTestCase {
  private static let childVariable = "VERGE_PERSISTENCE_WRITER_FILE"
  private static let kills = 100
  private static let misuseVariable = "VERGE_PERSISTENCE_MISUSE_FILE"

  /// A state that shows whether it was written whole: `copies` holds
  /// `counter` many times, and `checksum` is derived from both.
  struct Snapshot: Equatable, Codable, Sendable {
    var counter: Int
    var copies: [Int]
    var checksum: Int

    init(_ counter: Int) {
      self.counter = counter
      copies = Array(repeating: counter, count: 2_000)
      checksum = counter &* 0x9E37_79B1 ^ copies.count
    }
  }

  func testAWriterKilledAtRandomMomentsNeverLeavesAHalfWrittenFile() throws {
    if isThreadSanitized {
      // What this test checks is the file system's rename and the writer's
      // order of steps, not threads (PersistenceTests covers those under the
      // sanitizer). A sanitized child takes ten times as long to start, which
      // turns a two-second test into half a minute.
      throw XCTSkip("skipped under the Thread Sanitizer: it tests process death, not threads")
    }
    let directory = try PersistenceDirectoryFixture()
    let file = directory.file()
    var generator = SplitMix64(seed: 0x7E57_C4A5)
    for round in 0..<Self.kills {
      let child = try startWriter(file)
      // Let it write a few states, then kill it at a random moment of the
      // next one (the spin picks the moment; nothing is waited for).
      let confirmed = try child.readWrites(atLeast: Int.random(in: 1...2, using: &generator))
      var clock: UInt64 = 0
      for _ in 0..<Int.random(in: 0..<40_000, using: &generator) {
        clock &+= DispatchTime.now().uptimeNanoseconds
      }
      XCTAssertNotEqual(clock, 1)
      XCTAssertTrue(child.killNow(), "round \(round): the writer ended before it was killed")
      let lastReported = max(confirmed, try child.readWrites(atLeast: 0))

      // The file holds one complete state the child wrote: the last one it
      // reported, or the one it was reporting when it died.
      let (version, payload) = try StateFile.unframe(Data(contentsOf: file))
      XCTAssertEqual(version, 1)
      let snapshot = try JSONDecoder().decode(Snapshot.self, from: payload)
      XCTAssertEqual(snapshot, Snapshot(snapshot.counter), "round \(round): an inconsistent state")
      XCTAssertTrue(
        (lastReported...(lastReported + 1)).contains(snapshot.counter),
        "round \(round): the file holds \(snapshot.counter), the child last reported \(lastReported)")
      // And the library restores it (the killed child's lock is gone too).
      let store = Store<Snapshot, Never>(initialState: Snapshot(-1))
      let persistence = try store.persist(\.self, to: file)
      XCTAssertEqual(persistence.restoreOutcome, .restored(version: 1), "round \(round)")
      XCTAssertEqual(store.state.current, snapshot)
      try persistence.close()
    }
    // Nothing was refused, and the last attach removed the killed writers'
    // temporary files.
    XCTAssertEqual(directory.names, ["saved.state", "saved.state.lock"])
  }

  func testAFileHeldByAnotherProcessIsRefused() throws {
    if isThreadSanitized {
      throw XCTSkip("skipped under the Thread Sanitizer: it starts a process, see the crash test")
    }
    let directory = try PersistenceDirectoryFixture()
    let child = try startWriter(directory.file())
    _ = try child.readWrites(atLeast: 1)
    // Only the lock file tells this process that the child holds the file.
    let store = Store<Snapshot, Never>(initialState: Snapshot(0))
    XCTAssertThrowsError(try store.persist(\.self, to: directory.file())) { error in
      guard case .fileInUse = error as? PersistenceError else { return XCTFail("\(error)") }
    }
    XCTAssertEqual(store.state.counter, 0)
    XCTAssertTrue(child.killNow())
    // The system dropped the dead child's lock.
    XCTAssertNoThrow(try store.persist(\.self, to: directory.file()).close())
    XCTAssertGreaterThan(store.state.counter, 0)
  }

  func testFlushingInsideACommitOfTheStoreTraps() throws {
    let directory = try PersistenceDirectoryFixture()
    // The trap is expected (ChildProcess turns the crash backtracer off).
    let outcome = try ChildProcess(variable: Self.misuseVariable).run(
      test: "VergeTests.PersistenceCrashTests/testChildFlushInsideCommit", scenario: directory.file().path)
    let message = outcome.stderr
    XCTAssertFalse(outcome.succeeded)
    XCTAssertFalse(outcome.hung, message)
    XCTAssertTrue(
      message.contains("Verge misuse: 'flushSynchronously' was called on a store from inside"), message)
  }

  func testChildFlushInsideCommit() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.misuseVariable] else {
      throw XCTSkip("runs only as the child process of testFlushingInsideACommitOfTheStoreTraps")
    }
    let store = Store<Snapshot, Never>(initialState: Snapshot(0))
    let persistence = try store.persist(\.self, to: URL(fileURLWithPath: path))
    try store.commit { _ throws(PersistenceError) in try persistence.flushSynchronously() }
    XCTFail("did not trap")
  }

  /// The writer: restores the file, then commits and writes states with
  /// growing counters, reporting each one written on standard output, until
  /// it is killed (or its parent goes away: the report then fails).
  func testChildWriter() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else {
      throw XCTSkip("runs only as the child process of the crash test")
    }
    let store = Store<Snapshot, Never>(initialState: Snapshot(0))
    let persistence = try store.persist(\.self, to: URL(fileURLWithPath: path), writeInterval: .seconds(3600))
    var counter = store.state.counter
    for _ in 0..<100_000 {
      counter += 1
      let next = Snapshot(counter)
      store.commit { $0.replace(with: next) }
      try persistence.flushSynchronously()
      try FileHandle.standardOutput.write(contentsOf: Data("written \(counter)\n".utf8))
    }
  }

  /// The writer ended (it failed) before it reported what was asked for.
  private struct WriterEnded: Error, CustomStringConvertible {
    let expected: Int
    let seen: Int
    var description: String { "the writer ended after \(seen) of \(expected) writes" }
  }

  /// A running writer: its process and the read end of its output.
  ///
  /// Spawned with `posix_spawn` rather than `Process`, whose
  /// `waitUntilExit` polls every 50 ms on Linux: 120 rounds would spend
  /// six seconds there.
  private final class Writer {
    let pid: pid_t
    private let output: Int32
    private var pending = ""

    init(pid: pid_t, output: Int32) {
      self.pid = pid
      self.output = output
    }

    deinit {
      close(output)
    }

    /// Kills the writer with SIGKILL and reaps it.
    ///
    /// - Returns: Whether SIGKILL is what ended it.
    func killNow() -> Bool {
      _ = kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      // WIFSIGNALED and WTERMSIG, spelled out (they are C macros).
      return status & 0x7f == SIGKILL
    }

    /// Reads the writer's reports until `count` more arrived (or, for 0,
    /// until its output ends); returns the highest counter reported, 0 for
    /// none.
    func readWrites(atLeast count: Int) throws -> Int {
      var seen = 0
      var highest = 0
      var buffer = [UInt8](repeating: 0, count: 4096)
      while count == 0 || seen < count {
        let length = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if length < 0 && errno == EINTR { continue }
        if length <= 0 { break }
        pending += String(decoding: buffer[0..<length], as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
          let line = pending[..<newline]
          if line.hasPrefix("written "), let counter = Int(line.dropFirst("written ".count)) {
            highest = max(highest, counter)
            seen += 1
          }
          pending.removeSubrange(...newline)
        }
      }
      if count > 0 && seen < count {
        throw WriterEnded(expected: count, seen: seen)
      }
      return highest
    }
  }

  private func startWriter(_ file: URL) throws -> Writer {
    var environment = ProcessInfo.processInfo.environment
    environment[Self.childVariable] = file.path
    // The kill is expected: no crash backtracer (see MisuseTests).
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let arguments = [CommandLine.arguments[0], "VergeTests.PersistenceCrashTests/testChildWriter"]
    let variables = environment.map { "\($0.key)=\($0.value)" }

    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = variables.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    close(pipeEnds[1])
    guard status == 0 else {
      close(pipeEnds[0])
      throw POSIXError(.init(rawValue: status) ?? .EIO)
    }
    return Writer(pid: pid, output: pipeEnds[0])
  }
}
