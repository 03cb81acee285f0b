import Synchronization
import Verge
import XCTest

struct Counter: Equatable, Sendable {
  var count = 0
  var name = ""
  var flags: [Bool] = []
}

struct ValidationError: Error, Equatable {
  let reason: String
}

final class StoreCommitTests: XCTestCase {
  func testCommitMutatesAndReturnsTheClosureResult() {
    let store = Store<Counter, Never>(initialState: Counter())
    let result = store.commit { state -> Int in
      state.count += 5
      state.name = "five"
      return state.count * 2
    }
    XCTAssertEqual(result, 10)
    XCTAssertEqual(store.state.current, Counter(count: 5, name: "five"))
    XCTAssertEqual(store.state.count, 5)
  }

  func testMutatingMethodsAndReplacement() {
    let store = Store<Counter, Never>(initialState: Counter())
    store.commit { $0.flags.append(true) }
    store.commit { $0.modify { $0.flags.append(false) } }
    XCTAssertEqual(store.state.flags, [true, false])
    store.commit { $0.replace(with: Counter(count: 9)) }
    XCTAssertEqual(store.state.current, Counter(count: 9))
  }

  func testThrowingCommitLeavesStateAndSubscribersUntouched() {
    let store = Store<Counter, Never>(initialState: Counter(count: 1, name: "one"))
    let deliveries = Recorder<Changes<Counter>>()
    let subscription = store.sinkState(dropsFirst: true) { deliveries.append($0) }
    let derivedCount = store.derived(.select(\.count))

    XCTAssertThrowsError(
      try store.commit { state in
        state.count = 99
        state.name = "half-applied"
        throw ValidationError(reason: "no")
      }
    ) { error in
      XCTAssertEqual(error as? ValidationError, ValidationError(reason: "no"))
    }
    XCTAssertEqual(store.state.current, Counter(count: 1, name: "one"))
    XCTAssertEqual(deliveries.count, 0)
    XCTAssertEqual(derivedCount.value, 1)

    // A throwing closure that does not throw still commits.
    try? store.commit { (state) throws(ValidationError) in state.count = 2 }
    XCTAssertEqual(store.state.count, 2)
    XCTAssertEqual(deliveries.values.map(\.current.count), [2])
    withExtendedLifetime(subscription) {}
  }

  func testTypedThrowsReachTheCaller() {
    let store = Store<Counter, Never>(initialState: Counter())
    do {
      try store.commit { (_) throws(ValidationError) in throw ValidationError(reason: "typed") }
      XCTFail("expected a throw")
    } catch {
      // `error` is statically a ValidationError here.
      XCTAssertEqual(error.reason, "typed")
    }
  }

  func testCommitThatWritesNothingNotifiesNoOneAndAnyWriteNotifies() {
    let store = Store<Counter, Never>(initialState: Counter(count: 3))
    let changes = Recorder<Int>()
    let values = Recorder<Int>()
    let a = store.sinkState(dropsFirst: true) { changes.append($0.count) }
    let derived = store.derived(.map { $0.count })
    let b = derived.sinkState(dropsFirst: true) { values.append($0.current) }

    let read = store.commit { $0.count }  // reads only
    XCTAssertEqual(read, 3)
    XCTAssertEqual(changes.values, [])
    store.commit { $0.count = 3 }  // writes an equal value: notifies, as Verge does
    XCTAssertEqual(changes.values, [3])
    XCTAssertEqual(values.values, [], "a derived value publishes only when its output changes")

    store.commit { $0.count = 4 }
    XCTAssertEqual(changes.values, [3, 4])
    XCTAssertEqual(values.values, [4])
    withExtendedLifetime((a, b)) {}
  }

  func testEqualWriteWithOnlyDerivedSubscribersDoesNotRepublish() {
    let store = Store<Counter, Never>(initialState: Counter(count: 3))
    let derived = store.derived(.select(\.count))
    let values = Recorder<Int>()
    let subscription = derived.sinkState(dropsFirst: true) { values.append($0.current) }
    store.commit { $0.count = 3 }
    store.commit { $0.name = "unrelated" }
    XCTAssertEqual(values.values, [])
    withExtendedLifetime(subscription) {}
  }

  func testCommitNameAndLocationReachMiddleware() {
    let traces = Recorder<String>()
    let middleware = CommitMiddleware<Counter>(name: "trace") { _, _, trace in
      traces.append("\(trace.name)@\(trace.line)")
    }
    let store = Store<Counter, Never>(initialState: Counter(), middlewares: [middleware])
    let line = #line + 1
    store.commit("increment") { $0.count += 1 }
    XCTAssertEqual(traces.values, ["increment@\(line)"])
  }
}
