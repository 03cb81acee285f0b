import Foundation
@testable import Verge
import VergeTestSupport
import XCTest

/// File persistence: restoring, debounced writes, refused files, and one
/// store per file.
final class PersistenceTests: XCTestCase {
  private let hour = Duration.seconds(3600)

  // MARK: - Restoring and writing

  func testStateWrittenByOneStoreIsRestoredByTheNext() throws {
    let directory = try PersistenceDirectoryFixture()
    let first = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try first.persist(\.self, to: directory.file())
    XCTAssertEqual(persistence.restoreOutcome, .nothingStored)
    first.commit { $0.count = 3 }
    first.commit { $0.names.append("a") }
    try persistence.close()

    let second = Store<Notebook, Never>(initialState: Notebook())
    let restored = try second.persist(\.self, to: directory.file())
    XCTAssertEqual(restored.restoreOutcome, .restored(version: 1))
    XCTAssertEqual(second.state.current, Notebook(count: 3, names: ["a"]))
  }

  func testOnlyThePartAtTheKeyPathIsPersistedAndRestored() throws {
    let directory = try PersistenceDirectoryFixture()
    let first = Store<ProfileState, Never>(initialState: ProfileState())
    let persistence = try first.persist(\.preferences, to: directory.file())
    first.commit {
      $0.preferences.theme = "dark"
      $0.session = 42
    }
    try persistence.close()
    XCTAssertEqual(try readStateFile(directory.file(), as: Preferences.self).value.theme, "dark")

    let second = Store<ProfileState, Never>(initialState: ProfileState(session: 7))
    try second.persist(\.preferences, to: directory.file()).close()
    XCTAssertEqual(second.state.current, ProfileState(preferences: Preferences(theme: "dark"), session: 7))
  }

  func testRestoringIsACommitThatSubscribersSee() throws {
    let directory = try PersistenceDirectoryFixture()
    try writeStateFile(Notebook(count: 5), version: 1, to: directory.file())
    let store = Store<Notebook, Never>(initialState: Notebook())
    let seen = Recorder<Int>()
    store.sinkState(dropsFirst: true) { seen.append($0.count) }.storeWhileSourceActive()
    try store.persist(\.self, to: directory.file()).close()
    XCTAssertEqual(seen.values, [5])
  }

  func testCommitsDoNotWriteTheLastStateIsWrittenOnFlush() async throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: hour)
    for _ in 0..<100 { store.commit { $0.count += 1 } }
    // The write is an hour away: no commit wrote anything.
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file().path))
    try await persistence.flush()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 100)
    store.commit { $0.count = -1 }
    try persistence.flushSynchronously()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, -1)
    try persistence.close()
  }

  func testAScheduledWriteFollowsACommitWithTheLatestState() async throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: .milliseconds(1))
    let written = Gate()
    persistence.afterNextWrite { written.open() }
    store.commit { $0.count = 1 }
    store.commit { $0.count = 2 }
    await written.wait()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 2)
    try persistence.close()
  }

  func testCommitsFromManyThreadsWhileWritesRunEndWithTheLastStateOnDisk() async throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: .microseconds(100))
    let errors = Recorder<PersistenceError>()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for step in 0..<200 {
        store.commit { $0.count += 1 }
        if step.isMultiple(of: 50) {
          do throws(PersistenceError) {
            try persistence.flushSynchronously()
          } catch {
            errors.append(error)
          }
        }
      }
    }
    XCTAssertEqual(errors.values, [])
    try await persistence.flush()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 800)
    try persistence.close()
  }

  func testAChangeMadeJustBeforeTheStoreGoesAwayIsWritten() async throws {
    let directory = try PersistenceDirectoryFixture()
    var store: Store<Notebook, Never>? = Store(initialState: Notebook())
    weak let weakStore = store
    let persistence = try store!.persist(\.self, to: directory.file(), writeInterval: .milliseconds(20))
    let written = Gate()
    persistence.afterNextWrite { written.open() }
    store!.commit { $0.count = 9 }
    store = nil
    XCTAssertNil(weakStore, "the persistence must not keep the store itself alive")
    await written.wait()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 9)
    // Once written, the file is free for another store.
    try await persistence.flush()
    let next = Store<Notebook, Never>(initialState: Notebook())
    let again = try next.persist(\.self, to: directory.file())
    XCTAssertEqual(next.state.count, 9)
    try again.close()
  }

  func testAFlushAfterTheStoreWentAwayLetsItsStateGo() async throws {
    let directory = try PersistenceDirectoryFixture()
    var store: Store<Notebook, Never>? = Store(initialState: Notebook())
    let persistence = try store!.persist(\.self, to: directory.file(), writeInterval: hour)
    store!.commit { $0.count = 6 }
    store = nil
    // The write is an hour away; the flush writes now and lets the store's
    // state go, which gives the file up.
    try await persistence.flush()
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 6)
    let next = Store<Notebook, Never>(initialState: Notebook())
    try next.persist(\.self, to: directory.file()).close()
    XCTAssertEqual(next.state.count, 6)
  }

  func testAStoreWithNothingPendingGivesTheFileUpWhenItGoesAway() throws {
    let directory = try PersistenceDirectoryFixture()
    var store: Store<Notebook, Never>? = Store(initialState: Notebook())
    try store!.persist(\.self, to: directory.file())
    store = nil
    let next = Store<Notebook, Never>(initialState: Notebook())
    XCTAssertNoThrow(try next.persist(\.self, to: directory.file()).close())
  }

  func testStoreComponentTypePersistsItsStore() throws {
    final class Model: StoreComponentType {
      let store = Store<Notebook, Never>(initialState: Notebook())
    }
    let directory = try PersistenceDirectoryFixture()
    let model = Model()
    let persistence = try model.persist(\.count, to: directory.file())
    model.commit { $0.count = 4 }
    try persistence.close()
    XCTAssertEqual(try readStateFile(directory.file(), as: Int.self).value, 4)
  }

  func testCloseWritesWhatIsPendingAndStopsWriting() async throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: hour)
    store.commit { $0.count = 1 }
    try persistence.close()
    store.commit { $0.count = 2 }
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 1)
    do {
      try await persistence.flush()
      XCTFail("flush after close must throw")
    } catch {
      XCTAssertEqual(error, .closed)
    }
    XCTAssertThrowsError(try persistence.close()) { XCTAssertEqual($0 as? PersistenceError, .closed) }
  }

  func testAFailedWriteIsReportedAndTheStoreCarriesOn() throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: hour)
    try FileManager.default.removeItem(at: directory.url)
    store.commit { $0.count = 1 }
    XCTAssertThrowsError(try persistence.flushSynchronously()) { error in
      guard case .io(let operation, _, let code) = error as? PersistenceError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(operation, "open")
      XCTAssertEqual(code, ENOENT)
    }
    XCTAssertNotNil(persistence.lastWriteError)
    XCTAssertEqual(store.state.count, 1)
    // The directory comes back: the next flush writes, and the error clears.
    try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    try persistence.flushSynchronously()
    XCTAssertNil(persistence.lastWriteError)
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 1)
    try persistence.close()
  }

  func testStaleTemporaryFilesAreRemoved() throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    try store.persist(\.self, to: directory.file()).close()
    // A writer killed mid-write leaves its temporary file behind.
    try Data("partial".utf8).write(to: directory.file(".saved.state.tmp-1-1"))
    let next = Store<Notebook, Never>(initialState: Notebook())
    try next.persist(\.self, to: directory.file()).close()
    XCTAssertEqual(directory.names, ["saved.state.lock"])
  }

  func testAWriteKeepsThePermissionsOfTheFileItReplaces() throws {
    let directory = try PersistenceDirectoryFixture()
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file(), writeInterval: hour)
    store.commit { $0.count = 1 }
    try persistence.flushSynchronously()
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file().path)
    store.commit { $0.count = 2 }
    try persistence.flushSynchronously()
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.file().path)
    XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 2)
    try persistence.close()
  }

  // MARK: - Versions and refused files

  func testAnOlderVersionIsMigratedAndWrittenBackInTheCurrentOne() throws {
    struct OldPreferences: Codable { var dark: Bool }
    let directory = try PersistenceDirectoryFixture()
    try writeStateFile(OldPreferences(dark: true), version: 1, to: directory.file())
    let store = Store<ProfileState, Never>(initialState: ProfileState())
    let persistence = try store.persist(\.preferences, to: directory.file(), version: 2) { stored in
      XCTAssertEqual(stored.version, 1)
      let old = try stored.decode(OldPreferences.self)
      return Preferences(theme: old.dark ? "dark" : "light")
    }
    XCTAssertEqual(persistence.restoreOutcome, .migrated(from: 1, to: 2))
    XCTAssertEqual(store.state.preferences.theme, "dark")
    try persistence.close()
    let (version, value) = try readStateFile(directory.file(), as: Preferences.self)
    XCTAssertEqual(version, 2)
    XCTAssertEqual(value.theme, "dark")
  }

  func testDamagedFilesAreRefusedMovedAsideAndTheStoreStartsFresh() throws {
    let valid = StateFile.frame(try JSONEncoder().encode(Notebook(count: 8)), version: 1)
    var flipped = valid
    flipped[flipped.count - 3] ^= 0x01
    let cases: [(name: String, bytes: Data, reason: String)] = [
      ("garbage", Data("{\"count\": 8}".utf8), "no Verge state header"),
      ("empty", Data(), "the file is empty"),
      ("truncated", valid.dropLast(4), "the payload has"),
      ("flipped bit", flipped, "the checksum does not match the payload"),
      ("negative version", StateFile.frame(try JSONEncoder().encode(Notebook(count: 8)), version: -3),
       "the schema version is not a number of 0 or more"),
    ]
    for (name, bytes, reason) in cases {
      let directory = try PersistenceDirectoryFixture()
      try bytes.write(to: directory.file())
      let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
      let persistence = try store.persist(\.self, to: directory.file())
      guard case .refused(.damaged(let why), let aside) = persistence.restoreOutcome else {
        XCTFail("\(name): \(persistence.restoreOutcome)")
        continue
      }
      XCTAssertTrue(why.hasPrefix(reason), "\(name): \(why)")
      XCTAssertEqual(store.state.count, 1, name)
      XCTAssertEqual(try Data(contentsOf: aside), bytes, name)
      XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file().path), name)
      // The store goes on, and its next state is written to the file.
      store.commit { $0.count = 2 }
      try persistence.close()
      XCTAssertEqual(try readStateFile(directory.file(), as: Notebook.self).value.count, 2, name)
      XCTAssertEqual(try Data(contentsOf: aside), bytes, name)
    }
  }

  func testRefusedVersionsAndUndecodableFilesAreMovedAside() throws {
    struct Other: Codable { var title = "x" }
    let cases: [(name: String, write: (URL) throws -> Void, migrate: Bool, expected: PersistenceError)] = [
      ("newer", { try writeStateFile(Notebook(), version: 3, to: $0) }, true,
       .newerVersion(found: 3, supported: 2)),
      ("older without migration", { try writeStateFile(Notebook(), version: 1, to: $0) }, false,
       .migrationFailed(from: 1, to: 2, reason: "no migration was given")),
      ("migration throws", { try writeStateFile(Other(), version: 1, to: $0) }, true,
       .migrationFailed(from: 1, to: 2, reason: "")),
      ("undecodable", { try writeStateFile(Other(), version: 2, to: $0) }, true, .undecodable(reason: "")),
    ]
    for (name, write, migrate, expected) in cases {
      let directory = try PersistenceDirectoryFixture()
      try write(directory.file())
      let original = try Data(contentsOf: directory.file())
      let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
      var migration: (@Sendable (PersistedPayload) throws -> Notebook)?
      if migrate {
        migration = { stored in try stored.decode(Notebook.self) }
      }
      let persistence = try store.persist(\.self, to: directory.file(), version: 2, migrate: migration)
      guard case .refused(let error, let aside) = persistence.restoreOutcome else {
        XCTFail("\(name): \(persistence.restoreOutcome)")
        continue
      }
      switch (error, expected) {
      case (.migrationFailed(let from, let to, let reason), .migrationFailed(_, _, let expectedReason)):
        XCTAssertEqual([from, to], [1, 2], name)
        if !expectedReason.isEmpty { XCTAssertEqual(reason, expectedReason, name) }
      case (.undecodable, .undecodable):
        break
      default:
        XCTAssertEqual(error, expected, name)
      }
      XCTAssertFalse(error.description.isEmpty)
      XCTAssertEqual(store.state.count, 1, name)
      XCTAssertEqual(try Data(contentsOf: aside), original, name)
      XCTAssertEqual(aside.deletingLastPathComponent().path, directory.url.path, name)
      try persistence.close()
    }
  }

  func testMovingAsideNeverReplacesAnExistingFile() throws {
    let directory = try PersistenceDirectoryFixture()
    let now = Int(Date().timeIntervalSince1970)
    // Occupy the names a refused file would get in the next seconds.
    for second in now...(now + 2) {
      try Data("keep \(second)".utf8).write(to: directory.file("saved.state.refused-\(second)"))
    }
    try Data("damaged".utf8).write(to: directory.file())
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: directory.file())
    guard case .refused(_, let aside) = persistence.restoreOutcome else {
      return XCTFail("\(persistence.restoreOutcome)")
    }
    XCTAssertEqual(try Data(contentsOf: aside), Data("damaged".utf8))
    for second in now...(now + 2) {
      XCTAssertEqual(
        try Data(contentsOf: directory.file("saved.state.refused-\(second)")), Data("keep \(second)".utf8))
    }
    try persistence.close()
  }

  // MARK: - One store per file, and bad input

  func testASecondStoreOnTheSameFileIsRefusedUntilTheFirstCloses() throws {
    let directory = try PersistenceDirectoryFixture()
    let first = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try first.persist(\.self, to: directory.file())
    first.commit { $0.count = 1 }
    try persistence.flushSynchronously()

    let second = Store<Notebook, Never>(initialState: Notebook(count: 99))
    let sameFile = [
      directory.file(),
      URL(fileURLWithPath: directory.url.path + "/./sub/../saved.state"),
    ]
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
    for url in sameFile {
      XCTAssertThrowsError(try second.persist(\.self, to: url)) { error in
        guard case .fileInUse = error as? PersistenceError else { return XCTFail("\(error)") }
      }
    }
    XCTAssertEqual(second.state.count, 99, "a refused persistence leaves the state untouched")

    try persistence.close()
    try second.persist(\.self, to: directory.file()).close()
    XCTAssertEqual(second.state.count, 1)
  }

  func testBadArgumentsAreRefusedAndLeaveEverythingUntouched() throws {
    let directory = try PersistenceDirectoryFixture()
    try writeStateFile(Notebook(count: 5), version: 1, to: directory.file())
    let store = Store<Notebook, Never>(initialState: Notebook(count: 1))
    let attempts: [(String, () throws -> FilePersistence)] = [
      ("version", { try store.persist(\.self, to: directory.file(), version: -1) }),
      ("interval", { try store.persist(\.self, to: directory.file(), writeInterval: .zero) }),
      ("remote URL", { try store.persist(\.self, to: URL(string: "https://example.com/saved.state")!) }),
      ("directory URL", { try store.persist(\.self, to: URL(fileURLWithPath: directory.url.path + "/new/")) }),
    ]
    for (name, attempt) in attempts {
      XCTAssertThrowsError(try attempt(), name) { error in
        guard case .invalidConfiguration = error as? PersistenceError else { return XCTFail("\(name): \(error)") }
      }
    }
    XCTAssertEqual(store.state.count, 1)
    XCTAssertEqual(directory.names, ["saved.state"])
    // Something other than a file (here: a directory) is not moved aside
    // either (PersistenceFileKindTests covers the other kinds).
    let folder = directory.file("folder.state")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    XCTAssertThrowsError(try store.persist(\.self, to: folder)) { error in
      XCTAssertEqual(error as? PersistenceError, .notARegularFile(path: folder.path, kind: "a directory"))
    }
    XCTAssertEqual(store.state.count, 1)
    XCTAssertTrue(directory.names.contains("folder.state"))
  }
}
