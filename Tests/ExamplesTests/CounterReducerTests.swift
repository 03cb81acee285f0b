import XCTest
import VergeNeue
@testable import counter

/// The method reducer and the enum-action reducer of the counter, tested
/// through their stores.
final class CounterReducerTests: XCTestCase {
  func testMethodReducerMutationsAreNamedAndChangeTheCount() {
    let reducer = CounterReducer(delay: {})
    var state = Counter()
    reducer.increment().apply(to: &state)
    reducer.increment().apply(to: &state)
    reducer.decrement().apply(to: &state)
    XCTAssertEqual(state.count, 1)
    XCTAssertEqual(reducer.increment().name, "increment()")
    XCTAssertEqual(reducer.decrement().name, "decrement()")
  }

  func testMethodReducerIncrementLaterCommitsAfterTheDelay() async throws {
    let gate = DelayGate()
    let store = ReducerStore(initialState: Counter(), reducer: CounterReducer(delay: gate.delay))
    let dispatched = Task { try await store.dispatch { $0.incrementLater() } }
    XCTAssertEqual(store.state.count, 0)
    gate.open()
    try await dispatched.value
    XCTAssertEqual(store.state.count, 1)
  }

  func testMethodReducerIncrementLaterCancelledCommitsNothing() async {
    let gate = DelayGate()
    let store = ReducerStore(initialState: Counter(), reducer: CounterReducer(delay: gate.delay))
    let dispatched = Task { try await store.dispatch { $0.incrementLater() } }
    dispatched.cancel()
    let result = await dispatched.result
    XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
    gate.open()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.count, 0)
  }

  func testEnumReducerReducesSynchronousActions() {
    let feature = CounterFeature(delay: {})
    var state = Counter()
    _ = feature.reduce(into: &state, action: .increment)
    _ = feature.reduce(into: &state, action: .increment)
    _ = feature.reduce(into: &state, action: .decrement)
    XCTAssertEqual(state, Counter(count: 1))
    _ = feature.reduce(into: &state, action: .incrementLater)
    _ = feature.reduce(into: &state, action: .cancelIncrementLater)
    XCTAssertEqual(state, Counter(count: 1), "starting or cancelling the effect changes no state")
  }

  func testEnumReducerEffectSendsIncrementAfterTheDelay() async {
    let gate = DelayGate()
    let store = ActionStore(initialState: Counter(), reducer: CounterFeature(delay: gate.delay))
    let task = store.send(.incrementLater)
    XCTAssertEqual(store.state.count, 0)
    XCTAssertEqual(store.effectsInFlight, 1)
    gate.open()
    await task.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.count, 1)
    XCTAssertEqual(store.effectsInFlight, 0)
  }

  func testEnumReducerCancelStopsTheEffect() async {
    let gate = DelayGate()
    let store = ActionStore(initialState: Counter(), reducer: CounterFeature(delay: gate.delay))
    let task = store.send(.incrementLater)
    store.send(.cancelIncrementLater)
    await task.finish()
    gate.open()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.count, 0)
  }

  func testEnumReducerSecondIncrementLaterReplacesTheFirst() async {
    let gate = DelayGate()
    let store = ActionStore(initialState: Counter(), reducer: CounterFeature(delay: gate.delay))
    let first = store.send(.incrementLater)
    let second = store.send(.incrementLater)
    await first.finish()
    gate.open()
    await second.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.count, 1, "only the second delayed increment lands")
  }
}
