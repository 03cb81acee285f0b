import VergeTesting
import XCTest
@testable import counter

/// The counter's enum-action reducer (`CounterFeature`), asserted step by
/// step through `TestStore`: the exact state each action produced, every
/// action its effect sent back, and no effect left running.
final class CounterFeatureTests: XCTestCase {
  func testIncrementAndDecrementChangeTheCountByOne() async {
    let store = TestStore(initialState: Counter(), reducer: CounterFeature(delay: {}))
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.decrement) { $0.count = 1 }
    await store.send(.decrement) { $0.count = 0 }
    await store.send(.decrement) { $0.count = -1 }
    await store.finish()
  }

  func testIncrementLaterSendsIncrementOnceTheDelayEnds() async {
    let gate = DelayGate()
    let store = TestStore(initialState: Counter(count: 5), reducer: CounterFeature(delay: gate.delay))
    await store.send(.incrementLater)  // starting the effect changes no state
    XCTAssertEqual(store.state, Counter(count: 5))
    gate.open()
    await store.receive(.increment) { $0.count = 6 }
    await store.finish()
    XCTAssertEqual(gate.started, 1)
  }

  func testIncrementLaterWaitsExactlyTheInjectedDelayOnATestClock() async {
    let clock = TestClock()
    let feature = CounterFeature(delay: { try await clock.sleep(for: .seconds(2)) })
    let store = TestStore(initialState: Counter(), reducer: feature)
    await store.send(.incrementLater)
    let asleep = await clock.waitForSleepers()
    XCTAssertTrue(asleep)
    clock.advance(by: .milliseconds(1_999))
    XCTAssertEqual(clock.sleeperCount, 1, "one millisecond early, the effect still waits")
    XCTAssertEqual(store.state, Counter())
    clock.advance(by: .milliseconds(1))
    await store.receive(.increment) { $0.count = 1 }
    await store.finish()
  }

  func testCancelIncrementLaterStopsTheEffectBeforeItSendsAnything() async {
    let gate = DelayGate()
    let store = TestStore(initialState: Counter(), reducer: CounterFeature(delay: gate.delay))
    await store.send(.incrementLater)
    await store.send(.cancelIncrementLater)
    gate.open()  // too late: the cancelled delay already ended with CancellationError
    await store.finish()  // fails if `.increment` arrived or the effect still ran
    XCTAssertEqual(store.state, Counter())
    XCTAssertEqual(store.store.effectsInFlight, 0)
  }

  func testCancelIncrementLaterWithNothingWaitingDoesNothing() async {
    let store = TestStore(initialState: Counter(count: 3), reducer: CounterFeature(delay: {}))
    await store.send(.cancelIncrementLater)
    await store.finish()
  }

  func testASecondIncrementLaterReplacesTheFirst() async {
    let gate = DelayGate()
    let store = TestStore(initialState: Counter(), reducer: CounterFeature(delay: gate.delay))
    await store.send(.incrementLater)
    await store.send(.incrementLater)
    gate.open()
    await store.receive(.increment) { $0.count = 1 }
    await store.finish()  // a second `.increment` would be reported here
    XCTAssertEqual(gate.started, 2)
  }

  func testCancellingAfterTheDelayLandedChangesNothingMore() async {
    let store = TestStore(initialState: Counter(), reducer: CounterFeature(delay: {}))
    await store.send(.incrementLater)
    await store.receive(.increment) { $0.count = 1 }
    await store.send(.cancelIncrementLater)
    await store.finish()
  }

  // MARK: - The assertions can fail

  func testAWrongExpectationIsReportedWithTheDifference() async {
    let capture = FailureCapture()
    let store = TestStore(initialState: Counter(), reducer: CounterFeature(delay: {}), reporter: capture.reporter)
    await store.send(.increment) { $0.count = 2 }
    await store.finish()
    XCTAssertEqual(capture.all.count, 1)
    XCTAssertTrue(capture.all.first?.contains("expected: 2") ?? false, "\(capture.all)")
    XCTAssertTrue(capture.all.first?.contains("actual:   1") ?? false, "\(capture.all)")
  }

  func testAnUnreceivedDelayedIncrementIsReportedAtFinish() async {
    let capture = FailureCapture()
    let store = TestStore(initialState: Counter(), reducer: CounterFeature(delay: {}), reporter: capture.reporter)
    let line = #line + 1
    await store.send(.incrementLater)
    await store.finish()
    XCTAssertEqual(
      capture.all,
      [
        "finish(): 1 action(s) received but not asserted, sent by effects of send(.incrementLater):\n  .increment"
          + "\nTimeline of send(.incrementLater) at CounterReducerTests.swift:\(line):"
          + "\n  effect #1 started by .incrementLater (ended)\n  received .increment (not asserted)"
      ])
  }

  func testAnEffectLeftWaitingIsReportedAtFinish() async {
    let capture = FailureCapture()
    let gate = DelayGate()
    let store = TestStore(
      initialState: Counter(), reducer: CounterFeature(delay: gate.delay), reporter: capture.reporter)
    await store.send(.incrementLater)
    await store.finish(timeout: .milliseconds(50))
    XCTAssertEqual(capture.all.count, 1)
    XCTAssertTrue(capture.all.first?.contains("is still running") ?? false, "\(capture.all)")
  }
}

/// The counter's method reducer (`CounterReducer`), asserted through
/// `TestStore`: each committed mutation by name, with its exact state
/// change, and nothing committed after a cancelled delay.
final class CounterReducerTests: XCTestCase {
  func testMutationsAreNamedAfterTheirMethods() {
    let reducer = CounterReducer(delay: {})
    XCTAssertEqual(reducer.increment().name, "increment()")
    XCTAssertEqual(reducer.decrement().name, "decrement()")
    XCTAssertEqual(reducer.incrementLater().name, "incrementLater()")
  }

  func testCommitsChangeTheCountByOne() async {
    let store = TestStore(initialState: Counter(), reducer: CounterReducer(delay: {}))
    store.commit({ $0.increment() }) { $0.count = 1 }
    store.commit({ $0.increment() }) { $0.count = 2 }
    store.commit({ $0.decrement() }) { $0.count = 1 }
    store.commit({ $0.decrement() }) { $0.count = 0 }
    store.commit({ $0.decrement() }) { $0.count = -1 }
    await store.finish()
  }

  func testIncrementLaterCommitsIncrementOnceTheDelayEnds() async throws {
    let gate = DelayGate()
    let store = TestStore(initialState: Counter(count: 7), reducer: CounterReducer(delay: gate.delay))
    let later = store.dispatch { $0.incrementLater() }
    XCTAssertEqual(store.state, Counter(count: 7))
    gate.open()
    await store.receive("increment()") { $0.count = 8 }
    try await later.value
    await store.finish()
  }

  func testIncrementLaterWaitsExactlyTheInjectedDelayOnATestClock() async throws {
    let clock = TestClock()
    let reducer = CounterReducer(delay: { try await clock.sleep(for: .seconds(2)) })
    let store = TestStore(initialState: Counter(), reducer: reducer)
    let later = store.dispatch { $0.incrementLater() }
    let asleep = await clock.waitForSleepers()
    XCTAssertTrue(asleep)
    clock.advance(by: .milliseconds(1_999))
    XCTAssertEqual(clock.sleeperCount, 1, "one millisecond early, the action still waits")
    XCTAssertEqual(store.state, Counter())
    clock.advance(by: .milliseconds(1))
    await store.receive("increment()") { $0.count = 1 }
    try await later.value
    await store.finish()
  }

  func testCancelledIncrementLaterCommitsNothing() async {
    let gate = DelayGate()
    let store = TestStore(initialState: Counter(), reducer: CounterReducer(delay: gate.delay))
    let later = store.dispatch { $0.incrementLater() }
    later.cancel()
    gate.open()  // too late: the cancelled delay already ended with CancellationError
    do {
      try await later.value
      XCTFail("a cancelled incrementLater must throw")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    await store.finish()  // fails if `increment()` was committed
    XCTAssertEqual(store.state, Counter())
  }

  func testCancelledWhileAsleepOnATestClockCommitsNothing() async {
    let clock = TestClock()
    let reducer = CounterReducer(delay: { try await clock.sleep(for: .seconds(2)) })
    let store = TestStore(initialState: Counter(), reducer: reducer)
    let later = store.dispatch { $0.incrementLater() }
    let asleep = await clock.waitForSleepers()
    XCTAssertTrue(asleep)
    later.cancel()
    clock.advance(by: .seconds(2))
    let result: Result<Void, any Error> = await { () async -> Result<Void, any Error> in
      do { return .success(try await later.value) } catch { return .failure(error) }
    }()
    XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
    await store.finish()
    XCTAssertEqual(store.state, Counter())
  }

  // MARK: - The assertions can fail

  func testAWrongMutationNameIsReported() async {
    let capture = FailureCapture()
    let store = TestStore(
      initialState: Counter(), reducer: CounterReducer(delay: {}), reporter: capture.reporter)
    store.dispatch { $0.incrementLater() }
    await store.receive("decrement()") { $0.count = -1 }
    await store.finish()
    XCTAssertEqual(capture.all, ["receive(\"decrement()\"): the next committed mutation is \"increment()\"."])
  }

  func testAnUnassertedDelayedIncrementIsReportedAtFinish() async throws {
    let capture = FailureCapture()
    let store = TestStore(
      initialState: Counter(), reducer: CounterReducer(delay: {}), reporter: capture.reporter)
    let line = #line + 1
    let later = store.dispatch { $0.incrementLater() }
    try await later.value
    await store.finish()
    XCTAssertEqual(
      capture.all,
      [
        "finish(): 1 mutation(s) committed but not asserted, committed by dispatch(incrementLater()):\n  increment()"
          + "\nTimeline of dispatch(incrementLater()) at CounterReducerTests.swift:\(line):"
          + "\n  incrementLater() started (ended)\n  committed increment() (not asserted)"
      ])
  }
}
