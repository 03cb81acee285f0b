import Foundation
import Verge
import VergeTestSupport
import XCTest

/// A 64 KiB state on a thread with a 512 KiB stack does not overflow it: every
/// path a commit takes keeps at most a couple of copies of the state on the
/// stack. Each scenario runs in a child process, so that a stack overflow
/// fails its test instead of ending the run. (512 KiB in optimized builds,
/// `swift test -c release -Xswiftc -enable-testing`, and unoptimized ones;
/// only the queued delivery gets `SmallStack.size`, 1 MiB, unoptimized:
/// its test's own closures take 390 KiB there.)
final class SmallStackTests: XCTestCase {
  func testTheStateIsSixtyFourKibibytesInline() {
    XCTAssertEqual(MemoryLayout<LargeState>.size, 65_536)
  }

  private func expectChildSucceeds(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let (succeeded, stderr) = try SmallStack.runChild(
      test: "VergeTests.SmallStackTests/testChild\(scenario)", scenario: scenario)
    XCTAssertTrue(succeeded, "\(scenario) failed or crashed on a \(SmallStack.size / 1024) KiB stack:\n\(stderr)", file: file, line: line)
  }

  /// Runs `body` on a thread of `size` bytes (512 KiB in optimized builds)
  /// when this process is the child for `scenario`.
  private func child(
    _ scenario: String, size: Int = SmallStack.size, _ body: @escaping @Sendable () -> Void
  ) throws {
    guard SmallStack.isChild(running: scenario) else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    SmallStack.run(size: size, body)
  }

  /// The paths that fit in 512 KiB also in an unoptimized build.
  private static let evenUnoptimized = 512 * 1024

  // MARK: - Commit and delivery

  func testCommitWithASubscriber() throws { try expectChildSucceeds("Commit") }

  func testChildCommit() throws {
    try child("Commit", size: Self.evenUnoptimized) {
      let store = Store<LargeState, Never>(initialState: LargeState())
      let seen = SmallStackRecorder()
      let subscription = store.sinkState { changes in
        seen.record(changes.current.count, previous: changes.previous?.count, last: changes.current.last)
      }
      store.commit {
        $0.count += 1
        $0.last = 7
      }
      store.commit { $0.count += 1 }
      XCTAssertEqual(seen.values, [SmallStackRecorder.Entry(0, nil, 0), .init(1, 0, 7), .init(2, 1, 7)])
      XCTAssertEqual(store.state.count, 2)
      subscription.cancel()
    }
  }

  /// Deliveries that go through the queue: a subscriber that commits
  /// re-entrantly, and values subscribers.
  func testQueuedDelivery() throws { try expectChildSucceeds("QueuedDelivery") }

  func testChildQueuedDelivery() throws {
    try child("QueuedDelivery") {
      let store = Store<LargeState, Never>(initialState: LargeState())
      let seen = SmallStackRecorder()
      let echo = store.sinkState(dropsFirst: true) { changes in
        if changes.count == 1 { store.commit { $0.count = 2 } }
      }
      let recorder = store.sinkState(dropsFirst: true) { changes in
        seen.record(changes.current.count, previous: changes.previous?.count, last: changes.current.last)
      }
      store.commit { $0.count = 1 }
      XCTAssertEqual(seen.values, [.init(1, 0, 0), .init(2, 1, 0)])
      echo.cancel()
      recorder.cancel()
    }
  }

  func testThrowingCommit() throws { try expectChildSucceeds("ThrowingCommit") }

  func testChildThrowingCommit() throws {
    struct Refused: Error {}
    try child("ThrowingCommit", size: Self.evenUnoptimized) {
      let store = Store<LargeState, Never>(initialState: LargeState())
      let seen = SmallStackRecorder()
      let subscription = store.sinkState(dropsFirst: true) { changes in
        seen.record(changes.current.count, previous: changes.previous?.count, last: changes.current.last)
      }
      do {
        try store.commit { (state) throws(Refused) in
          state.count = 5
          throw Refused()
        }
        XCTFail("did not throw")
      } catch {}
      do {
        try store.commit { (state) throws(Refused) in state.count = 6 }
      } catch {
        XCTFail("threw")
      }
      XCTAssertEqual(seen.values, [.init(6, 0, 0)])
      subscription.cancel()
    }
  }

  func testIfChanged() throws { try expectChildSucceeds("IfChanged") }

  func testChildIfChanged() throws {
    try child("IfChanged", size: Self.evenUnoptimized) {
      let store = Store<LargeState, Never>(initialState: LargeState())
      let counts = SmallStackRecorder()
      let subscription = store.sinkState { changes in
        changes.ifChanged(\.count) { counts.record($0, previous: nil, last: 0) }
      }
      store.commit { $0.count = 1 }
      store.commit { $0.other = 1 }
      store.commit { $0.count = 2 }
      XCTAssertEqual(counts.values.map(\.current), [0, 1, 2])
      subscription.cancel()
    }
  }

  // MARK: - Commit middlewares

  func testCommitMiddlewares() throws { try expectChildSucceeds("CommitMiddlewares") }

  /// Commits through three commit middlewares that read the previous state
  /// and adjust the new one, with a subscriber, including a throwing commit
  /// that throws (the middlewares do not run) and one that does not; the
  /// store is made on the small thread too (in optimized builds). The
  /// state holds references as well, so that copying it retains them.
  func testChildCommitMiddlewares() throws {
    let seen = Recorder<String>()
    let makeStore = SmallStack.maker(for: "CommitMiddlewares") { largeStoreWithMiddlewares(recordingInto: seen) }
    let delivered = SmallStackRecorder()
    let log = Recorder<[String]>()
    try child("CommitMiddlewares", size: Self.evenUnoptimized) {
      let store = makeStore()
      let subscription = store.sinkState(dropsFirst: true) { changes in
        let large = changes.current.large
        delivered.record(large.count, previous: changes.previous?.large.count, last: large.last)
        log.append(changes.current.log)
      }
      store.commit { $0.large.count = 1 }
      do {
        try store.commit { (state) throws(SmallStackRefusal) in
          state.large.count = 50
          throw SmallStackRefusal()
        }
      } catch {}
      do {
        try store.commit { (state) throws(SmallStackRefusal) in state.large.count = 50 }
      } catch {
        seen.append("threw")
      }
      subscription.cancel()
    }
    // "clamp" keeps the count at most 10; "stamp" writes the previous
    // count plus 100 into `last`; "record" logs what the two before it left.
    XCTAssertEqual(
      seen.values,
      [
        "clamp 0/0 -> 1", "stamp 0/0 -> 1", "record 0 -> 1/100",
        "clamp 1/100 -> 50", "stamp 1/100 -> 10", "record 1 -> 10/101",
      ])
    XCTAssertEqual(delivered.values, [.init(1, 0, 100), .init(10, 1, 101)])
    XCTAssertEqual(log.values, [["0->1"], ["0->1", "1->10"]])
  }

  // MARK: - Derived values

  func testDerivedValues() throws { try expectChildSucceeds("Derived") }

  func testChildDerived() throws {
    try child("Derived", size: Self.evenUnoptimized) {
      let store = Store<LargeState, Never>(initialState: LargeState())
      let count = store.derived(.select(\.count))
      let mapped = store.derived(.map { $0.count * 2 })
      let last = store.derived(.select(\.last))
      let chained = last.derived(.map { $0 * 10 })
      let seen = SmallStackRecorder()
      let subscriptions = [
        count.sinkState(dropsFirst: true) { seen.record($0.current, previous: $0.previous, last: 0) },
        chained.sinkState(dropsFirst: true) { seen.record($0.current, previous: $0.previous, last: 0) },
      ]
      store.commit { $0.count = 1 }
      store.commit { $0.last = 3 }
      XCTAssertEqual(count.value, 1)
      XCTAssertEqual(mapped.value, 2)
      XCTAssertEqual(last.value, 3)
      XCTAssertEqual(last.state.previous, 0)
      XCTAssertEqual(chained.value, 30)
      XCTAssertEqual(seen.values, [.init(1, 0, 0), .init(30, 0, 0)])
      for subscription in subscriptions { subscription.cancel() }
    }
  }

  // MARK: - Making stores

  func testMakingStores() throws { try expectChildSucceeds("Making") }

  /// The stores are made on the small thread itself, as view models and
  /// features are made on background threads and in tasks: a plain store
  /// and derived values of it, on 512 KiB also in unoptimized builds.
  func testChildMaking() throws {
    try child("Making", size: Self.evenUnoptimized) {
      let store = largeStore()
      let count = store.derived(.select(\.count))
      let last = store.derived(.map { $0.last })
      store.commit { $0.count = 3 }
      XCTAssertEqual(count.value, 3)
      XCTAssertEqual(last.value, 0)
      XCTAssertEqual(store.version, 1)
    }
  }

  func testMakingAStoreOfAStateType() throws { try expectChildSucceeds("MakingStateType") }

  /// A store whose state adopts `StateType`, reduced as it is made.
  func testChildMakingStateType() throws {
    try child("MakingStateType") {
      let store = reducedLargeStore()
      let doubled = store.derived(.map { $0.doubled })
      XCTAssertEqual(doubled.value, 0)
    }
  }

  // MARK: - Persistence

  func testPersistence() throws { try expectChildSucceeds("Persistence") }

  /// Attaching persistence, committing with it attached, closing it (which
  /// writes on the calling thread's turn) and restoring from the file, all
  /// on a 512 KiB thread, also in unoptimized builds (the stores are made as
  /// `SmallStack.maker(for:_:)` says). Foundation's `JSONDecoder` takes about 2 MiB of
  /// stack to decode this state and `JSONEncoder` 320 KiB to encode it: the
  /// library codes on a thread of its own (`CodingThread`).
  func testChildPersistence() throws {
    guard SmallStack.isChild(running: "Persistence") else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-small-stack-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("saved.state")
    // The small thread touches nothing of XCTest; what it found is checked
    // here, and so is the restored state (the test's own reads through
    // `store.state` take about 390 KiB in an unoptimized build).
    let found = SharedLock<(steps: [String], restored: Store<LargeState, Never>?)>(([], nil))
    let makeStores = SmallStack.maker(for: "Persistence") { (largeStore(), largeStore()) }
    SmallStack.run(size: Self.evenUnoptimized) {
      let (first, second) = makeStores()
      let steps = smallStackPersistenceRoundTrip(file, first: first, second: second)
      found.withLock { $0 = (steps, second) }
    }
    let (steps, restored) = found.withLock { $0 }
    XCTAssertEqual(steps, ["nothingStored", "closed", "restored(version: 1)", "closed"])
    XCTAssertEqual(restored?.state.count, 4)
    XCTAssertEqual(restored?.state.last, 9)
  }
}

/// Persists a large state to `file`, commits, closes, then restores it in a
/// second store; says what happened at each step. Its own frame, so that
/// the test's closure holds no state.
@inline(never)
private func smallStackPersistenceRoundTrip(
  _ file: URL, first: Store<LargeState, Never>, second: Store<LargeState, Never>
) -> [String] {
  var steps: [String] = []
  do {
    let persistence = try first.persist(\.self, to: file)
    steps.append("\(persistence.restoreOutcome)")
    first.commit { $0.count = 4 }
    first.commit { $0.last = 9 }
    try persistence.close()
    steps.append("closed")
    let restored = try second.persist(\.self, to: file)
    steps.append("\(restored.restoreOutcome)")
    try restored.close()
    steps.append("closed")
  } catch {
    steps.append("threw \(error)")
  }
  return steps
}

@inline(never)
private func largeStore() -> Store<LargeState, Never> {
  Store(initialState: LargeState())
}

/// A 64 KiB state whose `StateType` hook keeps `doubled` at twice the
/// count, from the moment the store is made.
private struct ReducedLargeState: StateType {
  var large = LargeState()
  var doubled = -1

  static func reduce(modifying: inout InoutRef<ReducedLargeState>, current: Changes<ReducedLargeState>) {
    modifying.doubled = current.large.count * 2
  }
}

@inline(never)
private func reducedLargeStore() -> Store<ReducedLargeState, Never> {
  Store(initialState: ReducedLargeState())
}

/// What a subscriber saw, from any thread.
final class SmallStackRecorder: Sendable {
  struct Entry: Equatable, Sendable {
    var current: Int
    var previous: Int?
    var last: Int

    init(_ current: Int, _ previous: Int?, _ last: Int) {
      self.current = current
      self.previous = previous
      self.last = last
    }
  }

  private let entries = Recorder<Entry>()

  func record(_ current: Int, previous: Int?, last: Int) {
    entries.append(Entry(current, previous, last))
  }

  var values: [Entry] { entries.values }
}

/// What the throwing commits of the small-stack tests throw.
private struct SmallStackRefusal: Error {}

/// A 64 KiB state that also holds references (a copy retains them, which
/// costs stack that a plain copy of `LargeState` does not), with a log the
/// middlewares append to.
private struct LargeStateWithLog: Equatable, Sendable {
  var large = LargeState()
  var log: [String] = []
  var name = "large"
}

/// A store of a large state with three commit middlewares, each recording
/// what it saw into `seen`: "clamp" keeps the count at most 10, "stamp"
/// sets `last` to the previous count plus 100, "record" appends to the
/// state's log.
@inline(never)
private func largeStoreWithMiddlewares(recordingInto seen: Recorder<String>) -> Store<LargeStateWithLog, Never> {
  let clamp = CommitMiddleware<LargeStateWithLog>(name: "clamp") { before, after, _ in
    seen.append("clamp \(before.large.count)/\(before.large.last) -> \(after.large.count)")
    after.large.count = min(after.large.count, 10)
  }
  let stamp = CommitMiddleware<LargeStateWithLog>(name: "stamp") { before, after, _ in
    seen.append("stamp \(before.large.count)/\(before.large.last) -> \(after.large.count)")
    after.large.last = before.large.count + 100
  }
  let record = CommitMiddleware<LargeStateWithLog>(name: "record") { before, after, _ in
    seen.append("record \(before.log.count) -> \(after.large.count)/\(after.large.last)")
    after.log.append("\(before.large.count)->\(after.large.count)")
  }
  return Store(initialState: LargeStateWithLog(), middlewares: [clamp, stamp, record])
}
