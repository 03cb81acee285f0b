import VergeTesting
import XCTest

/// Every kind of `TestStore` failure, with its exact message and line.
final class TestStoreFailureTests: XCTestCase {
  private func makeStore(
    api: PhotoAPI = .stub(["a"]), clock: TestClock = TestClock(), log: FailureLog
  ) -> TestStore<Gallery> {
    TestStore(
      initialState: .init(), reducer: Gallery(api: api, clock: clock), timeout: .milliseconds(200),
      reporter: log.reporter)
  }

  func testWrongExpectationShowsTheDiff() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    await store.send(.rename("Blob Jr.")) { $0.owner.name = "Blob Sr." }
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            send(.rename("Blob Jr.")): the state is not what was expected:
              owner.name
                expected: "Blob Sr."
                actual:   "Blob Jr."
            """, line: line)
      ])
  }

  func testChangeWithoutClosureFails() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.rename("Z"))
    XCTAssertEqual(
      log.messages,
      [
        """
        send(.rename("Z")) changed the state, but no assertion closure describes the change:
          owner.name
            expected: "Blob"
            actual:   "Z"
        """
      ])
  }

  func testClosureWithoutChangeFails() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.noop) { $0.owner.name = "Blob" }
    XCTAssertEqual(
      log.messages, ["send(.noop): the assertion closure expects a change, but the state did not change."])
  }

  func testThrowingClosureFails() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.rename("Q")) { _ in throw StubError() }
    XCTAssertEqual(log.messages, ["send(.rename(\"Q\")): the assertion closure threw stub failure."])
  }

  func testUnreceivedActionFailsAtTheNextSend() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let sendLine: UInt = #line + 1
    await store.send(.chain)
    let line: UInt = #line + 1
    await store.send(.noop)
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            send(.noop): 1 received action(s) must be asserted with receive, or skipped with skipReceivedActions(), first:
              .tick (from send(.chain) at TestStoreFailureTests.swift:\(sendLine))
            """, line: line)
      ])
  }

  func testReceivingTheWrongActionFails() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.chain)
    await store.receive(.loaded([]))
    XCTAssertEqual(log.messages, ["receive(.loaded([])): the next received action is .tick."])
  }

  func testReceiveFailsAtOnceWhenNothingRuns() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.noop)
    let started = ContinuousClock.now
    await store.receive(.tick, timeout: .seconds(30))
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    XCTAssertEqual(
      log.messages, ["receive(.tick): no action was received, and no effect is running that could send one."])
  }

  func testReceiveTimesOut() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.startTimer)
    await store.receive(.tick, timeout: .milliseconds(50))
    store.skipInFlightEffects()
    await store.finish()
    XCTAssertEqual(log.messages, ["receive(.tick): timed out after 50 ms; 1 effect(s) still running."])
  }

  func testFinishPointsAtTheSendWhoseEffectStillRuns() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    await store.send(.startTimer)
    await store.finish(timeout: .milliseconds(50))
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): an effect started by send(.startTimer) is still running. Receive its actions, or call skipInFlightEffects().
            Timeline of send(.startTimer) at TestStoreFailureTests.swift:\(line):
              effect #1 started by .startTimer (still running)
            """,
          line: line)
      ])
  }

  func testFinishPointsAtTheSendWhoseActionsWereNotReceived() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    await store.send(.load) { $0.isLoading = true }
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): 1 action(s) received but not asserted, sent by effects of send(.load):
              .loaded(["a"])
            Timeline of send(.load) at TestStoreFailureTests.swift:\(line):
              effect #1 started by .load (ended)
              received .loaded(["a"]) (not asserted)
            """, line: line)
      ])
  }

  func testReceivedStateIsCheckedToo() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(["a"])) { $0.photos = ["a"] }
    await store.finish()
    XCTAssertEqual(
      log.messages,
      [
        """
        receive(.loaded(["a"])): the state is not what was expected:
          isLoading
            expected: true
            actual:   false
        """
      ])
  }

  func testAnEffectsErrorIsReported() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.failingEffect)
    await store.finish()
    XCTAssertEqual(log.messages, ["An effect failed with an error: stub failure"])
  }

  func testReleasingWithoutFinishReportsLeftovers() async {
    let log = FailureLog()
    var store: TestStore<Gallery>? = makeStore(log: log)
    let line: UInt = #line + 1
    await store?.send(.chain)
    store = nil
    XCTAssertEqual(
      log.messages,
      [
        """
        The test store was released without finish(): 1 action(s) received but not asserted, sent by effects of send(.chain):
          .tick
        Timeline of send(.chain) at TestStoreFailureTests.swift:\(line):
          received .tick (not asserted)
        """
      ])
  }
}
