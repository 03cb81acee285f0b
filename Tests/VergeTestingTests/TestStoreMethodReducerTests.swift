import VergeTesting
import VergeTestSupport
import XCTest

struct Album: Equatable, Sendable {
  var photos: [String] = []
  var isLoading = false
  var count = 0
}

/// What `AlbumReducer`'s actions announce.
enum AlbumActivity: Sendable, Equatable {
  case refreshed(Int)
}

final class AlbumReducer: ReducerType {
  typealias TargetState = Album
  typealias TargetActivity = AlbumActivity
  let api: PhotoAPI
  let clock: TestClock

  init(api: PhotoAPI, clock: TestClock = TestClock()) {
    self.api = api
    self.clock = clock
  }

  func increment() -> Mutation { .init { $0.count += 1 } }
  func setLoading(_ value: Bool) -> Mutation { .init { $0.isLoading = value } }
  func setPhotos(_ photos: [String]) -> Mutation {
    .init {
      $0.photos = photos
      $0.isLoading = false
    }
  }

  func refresh() -> Action<Int> {
    .init { context in
      context.commit { $0.setLoading(true) }
      let photos = try await self.api.photos()
      context.commit { $0.setPhotos(photos) }
      return photos.count
    }
  }

  func refreshAndAnnounce() -> Action<Void> {
    .init { context in
      let count = try await context.dispatch { $0.refresh() }
      context.send(.refreshed(count))
    }
  }

  func gatedIncrement(_ gate: Gate) -> Action<Void> {
    .init { context in
      await gate.wait()
      context.commit { $0.increment() }
    }
  }

  func refreshThroughAnother() -> Action<Int> {
    .init { context in try await context.dispatch { $0.refresh() } }
  }

  func delayedIncrement() -> Action<Void> {
    .init { context in
      try await self.clock.sleep(for: .seconds(5))
      context.commit { $0.increment() }
    }
  }
}

final class TestStoreMethodReducerTests: XCTestCase {
  private func makeStore(api: PhotoAPI = .stub(["a"]), clock: TestClock = TestClock(), log: FailureLog)
    -> TestStore<AlbumReducer>
  {
    TestStore(
      initialState: Album(), reducer: AlbumReducer(api: api, clock: clock), timeout: .milliseconds(500),
      reporter: log.reporter)
  }

  func testCommitAndDispatchInOrder() async throws {
    let log = FailureLog()
    let gate = Gate()
    let store = makeStore(api: .stub(["a", "b"], gate: gate), log: log)
    store.commit({ $0.increment() }) { $0.count = 1 }
    let refresh = store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    gate.open()
    await store.receive("setPhotos(_:)") {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    let count = try await refresh.value
    XCTAssertEqual(count, 2)
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testTestClockDrivesAnAction() async throws {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(clock: clock, log: log)
    let action = store.dispatch { $0.delayedIncrement() }
    await clock.waitForSleepers()
    clock.advance(by: .seconds(5))
    await store.receive("increment()") { $0.count = 1 }
    try await action.value
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testNonExhaustiveSkipsMutations() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    store.exhaustivity = .off
    store.dispatch { $0.refresh() }
    await store.receive("setPhotos(_:)") { $0.photos = ["a"] }
    store.commit { $0.increment() }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testSkipInFlightActions() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(clock: clock, log: log)
    let action = store.dispatch { $0.delayedIncrement() }
    await clock.waitForSleepers()
    store.skipInFlightActions()
    await store.finish()
    XCTAssertEqual(log.messages, [])
    do {
      try await action.value
      XCTFail("the cancelled action should have thrown")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
  }

  /// A method reducer's test as a user writes it (failures go to
  /// `XCTFail`).
  func testTheReadmeSnippet() async throws {
    let store = TestStore(initialState: Album(), reducer: AlbumReducer(api: .stub(["a"])))

    store.commit({ $0.increment() }) { $0.count = 1 }
    let refresh = store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    await store.receive("setPhotos(_:)") {
      $0.isLoading = false
      $0.photos = ["a"]
    }
    let count = try await refresh.value
    XCTAssertEqual(count, 1)
    await store.finish()  // fails for mutations not received, at their dispatch
  }

  func testTheTypeIsInferredFromTheReducer() {
    let store = TestStore(initialState: Album(), reducer: AlbumReducer(api: .stub([])))
    let typed: TestStore<AlbumReducer> = store
    let inner: ReducerStore<AlbumReducer> = typed.store
    XCTAssertEqual(inner.state.current, Album())
    XCTAssertEqual(typed.state, Album())
  }

  // MARK: - Attribution

  func testInterleavedDispatchesAreAttributedToTheirOwnDispatch() async throws {
    let log = FailureLog()
    let store = makeStore(log: log)
    let gateA = Gate()
    let gateB = Gate()
    let firstLine: UInt = #line + 1
    let first = store.dispatch { $0.gatedIncrement(gateA) }
    let secondLine: UInt = #line + 1
    let second = store.dispatch { $0.gatedIncrement(gateB) }
    // Both run while the first one commits.
    gateA.open()
    try await first.value
    gateB.open()
    try await second.value
    await store.finish()
    func message(_ line: UInt) -> String {
      """
      finish(): 1 mutation(s) committed but not asserted, committed by dispatch(gatedIncrement(_:)):
        increment()
      Timeline of dispatch(gatedIncrement(_:)) at TestStoreMethodReducerTests.swift:\(line):
        gatedIncrement(_:) started (ended)
        committed increment() (not asserted)
      """
    }
    XCTAssertEqual(
      log.all, [.init(message: message(firstLine), line: firstLine), .init(message: message(secondLine), line: secondLine)])
  }

  func testMutationsOfANestedDispatchBelongToTheOuterOne() async throws {
    let log = FailureLog()
    let store = makeStore(log: log)
    let dispatchLine: UInt = #line + 1
    let refresh = store.dispatch { $0.refreshThroughAnother() }
    _ = try await refresh.value
    let line: UInt = #line + 1
    store.commit({ $0.increment() }) { $0.count = 1 }
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            commit(increment()): 2 committed mutation(s) must be asserted with receive, or skipped with skipReceivedMutations(), first:
              setLoading(_:) (from dispatch(refreshThroughAnother()) at TestStoreMethodReducerTests.swift:\(dispatchLine))
              setPhotos(_:) (from dispatch(refreshThroughAnother()) at TestStoreMethodReducerTests.swift:\(dispatchLine))
            """, line: line)
      ])
    await store.finish()
  }

  // MARK: - Failures

  func testWrongMutationStateShowsTheDiff() {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    store.commit({ $0.increment() }) { $0.count = 2 }
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            commit(increment()): the state is not what was expected:
              count
                expected: 2
                actual:   1
            """, line: line)
      ])
  }

  func testWrongMutationNameFails() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    store.dispatch { $0.refresh() }
    await store.receive("setPhotos(_:)") { $0.photos = ["a"] }
    await store.finish()
    XCTAssertEqual(
      log.messages,
      [
        "receive(\"setPhotos(_:)\"): the next committed mutation is \"setLoading(_:)\".",
        """
        finish(): 1 mutation(s) committed but not asserted, committed by dispatch(refresh()):
          setPhotos(_:)
        Timeline of dispatch(refresh()) at TestStoreMethodReducerTests.swift:\(line):
          refresh() started (ended)
          committed setLoading(_:) (not asserted)
          committed setPhotos(_:) (not asserted)
        """,
      ])
  }

  func testUnassertedMutationsFailAtTheNextCommit() async throws {
    let log = FailureLog()
    let store = makeStore(log: log)
    let dispatchLine: UInt = #line + 1
    let refresh = store.dispatch { $0.refresh() }
    _ = try await refresh.value
    let line: UInt = #line + 1
    store.commit({ $0.increment() }) { $0.count = 1 }
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            commit(increment()): 2 committed mutation(s) must be asserted with receive, or skipped with skipReceivedMutations(), first:
              setLoading(_:) (from dispatch(refresh()) at TestStoreMethodReducerTests.swift:\(dispatchLine))
              setPhotos(_:) (from dispatch(refresh()) at TestStoreMethodReducerTests.swift:\(dispatchLine))
            """, line: line)
      ])
  }

  func testFinishPointsAtTheActionStillRunning() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    store.dispatch { $0.delayedIncrement() }
    await store.finish(timeout: .milliseconds(50))
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): dispatch(delayedIncrement()) is still running. Receive its mutations, or call skipInFlightActions().
            Timeline of dispatch(delayedIncrement()) at TestStoreMethodReducerTests.swift:\(line):
              delayedIncrement() started (still running)
            """,
          line: line)
      ])
  }

  func testReceiveWithNothingRunningFailsAtOnce() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.receive("increment()", timeout: .seconds(30))
    XCTAssertEqual(
      log.messages,
      [
        "receive(\"increment()\"): no mutation was committed, and no dispatched action is running that could commit one."
      ])
  }

  func testReceiveTimesOut() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    store.dispatch { $0.delayedIncrement() }
    await store.receive("increment()", timeout: .milliseconds(30))
    store.skipInFlightActions()
    await store.finish()
    XCTAssertEqual(log.messages, ["receive(\"increment()\"): timed out after 30 ms waiting for the mutation."])
  }
}
