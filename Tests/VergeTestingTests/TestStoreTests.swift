import VergeTesting
import VergeTestSupport
import XCTest

/// Passing uses of the enum-action `TestStore`; every test also proves that
/// nothing was reported.
final class TestStoreTests: XCTestCase {
  private func makeStore(
    api: PhotoAPI = .stub(["a", "b"]), clock: TestClock = TestClock(), log: FailureLog
  ) -> TestStore<Gallery> {
    TestStore(initialState: .init(), reducer: Gallery(api: api, clock: clock), reporter: log.reporter)
  }

  func testTheTypeIsInferredFromTheReducer() async {
    let store = TestStore(initialState: Gallery.State(), reducer: Gallery(api: .stub([]), clock: TestClock()))
    let typed: TestStore<Gallery> = store
    let inner: ActionStore<Gallery> = typed.store
    XCTAssertEqual(inner.state.current, Gallery.State())
    let _: Gallery = typed.reducer
    await typed.finish()
  }

  func testSendAndReceiveAnEffectsAction() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(["a", "b"])) {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    await store.finish()
    XCTAssertEqual(log.messages, [])
    XCTAssertEqual(store.state.photos, ["a", "b"])
  }

  func testAnActionThatChangesNothingNeedsNoClosure() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.noop)
    await store.send(.rename("Blob Jr.")) { $0.owner.name = "Blob Jr." }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testReceiveWithAPredicate() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.chain)
    await store.receive(where: { $0 == .tick }) { $0.ticks = 1 }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testATestClockReplacesSleeping() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(clock: clock, log: log)
    await store.send(.startTimer)
    for tick in 1...3 {
      let asleep = await clock.waitForSleepers()
      XCTAssertTrue(asleep)
      clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.ticks = tick }
    }
    await store.finish()
    XCTAssertEqual(log.messages, [])
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(3)))
  }

  func testStubbedAPIDecidesWhenTheResponseArrives() async {
    let log = FailureLog()
    let gate = Gate()
    let store = makeStore(api: .stub(["x"], gate: gate), log: log)
    await store.send(.load) { $0.isLoading = true }
    XCTAssertEqual(store.state.isLoading, true)
    gate.open()
    await store.receive(.loaded(["x"])) {
      $0.isLoading = false
      $0.photos = ["x"]
    }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testNonExhaustiveChecksOnlyAssignedFieldsAndSkipsTheRest() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    store.exhaustivity = .off
    await store.send(.load)  // a change without closure is fine
    await store.receive(.loaded(["a", "b"])) { $0.photos = ["a", "b"] }  // isLoading unchecked
    await store.send(.chain)  // its .tick is never received
    await store.send(.rename("X")) { $0.owner.name = "X" }
    await store.send(.startTimer)  // still running at finish
    await store.finish(timeout: .milliseconds(20))
    XCTAssertEqual(log.messages, [])
    XCTAssertEqual(store.state.ticks, 1)
  }

  func testNonExhaustiveStillCatchesAWrongAssignment() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    store.exhaustivity = .off
    await store.send(.rename("X")) { $0.owner.name = "Y" }
    XCTAssertEqual(
      log.messages,
      [
        """
        send(.rename("X")): the state is not what was expected:
          owner.name
            expected: "Y"
            actual:   "X"
        """
      ])
  }

  func testSkipReceivedActionsAndInFlightEffects() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(clock: clock, log: log)
    await store.send(.startTimer)
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.chain) { _ in }  // nothing: .chain itself changes nothing
    store.skipReceivedActions()
    store.skipInFlightEffects()
    await store.finish()
    XCTAssertEqual(log.messages, ["send(.chain): the assertion closure expects a change, but the state did not change."])
  }

  func testCancellingAnEffectEndsIt() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(clock: clock, log: log)
    await store.send(.startTimer)
    await clock.waitForSleepers()
    await store.send(.stopTimer)
    await store.finish()
    XCTAssertEqual(log.messages, [])
    XCTAssertEqual(clock.sleeperCount, 0)
  }
}

/// A `@MainActor` test class: the store's async methods run on the caller's
/// actor, so it works from there too.
@MainActor
final class TestStoreMainActorTests: XCTestCase {
  func testFromTheMainActor() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: .init(), reducer: Gallery(api: .stub(["m"]), clock: TestClock()), reporter: log.reporter)
    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(["m"])) {
      $0.isLoading = false
      $0.photos = ["m"]
    }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }
}
