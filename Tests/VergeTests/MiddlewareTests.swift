import Verge
import XCTest

final class MiddlewareTests: XCTestCase {
  func testMiddlewareSeesBeforeAndAfterAndMayAdjust() {
    let seen = Recorder<String>()
    let clamp = CommitMiddleware<Counter>(name: "clamp") { before, after, _ in
      seen.append("\(before.count)->\(after.count)")
      after.count = min(after.count, 10)
    }
    let store = Store<Counter, Never>(initialState: Counter(), middlewares: [clamp])
    let delivered = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { delivered.append($0.count) }
    store.commit { $0.count = 5 }
    store.commit { $0.count = 50 }
    XCTAssertEqual(store.state.count, 10)
    XCTAssertEqual(seen.values, ["0->5", "5->50"])
    XCTAssertEqual(delivered.values, [5, 10])

    // Adjusted back to the previous value: the commit wrote, so subscribers
    // are notified, and `ifChanged` tells them nothing changed.
    store.commit { $0.count = 11 }
    XCTAssertEqual(delivered.values, [5, 10, 10])
    withExtendedLifetime(subscription) {}
  }

  func testMiddlewaresRunInOrderAndSkipCommitsThatWriteNothing() {
    let order = Recorder<String>()
    let first = CommitMiddleware<Counter>(name: "first") { _, after, _ in
      order.append("first")
      after.name += "a"
    }
    let second = CommitMiddleware<Counter>(name: "second") { _, after, _ in
      order.append("second")
      after.name += "b"
    }
    let store = Store<Counter, Never>(initialState: Counter(), middlewares: [first, second])
    store.commit { _ in }
    XCTAssertEqual(order.values, [])
    store.commit { $0.count = 1 }
    XCTAssertEqual(order.values, ["first", "second"])
    XCTAssertEqual(store.state.name, "ab")
  }

  func testLoggingMiddlewareDescribesChangedFields() {
    let lines = Recorder<String>()
    let store = Store<Counter, Never>(
      initialState: Counter(), middlewares: [.logging { lines.append($0) }])
    let line = #line + 1
    store.commit("rename") { $0.name = "Ada" }
    XCTAssertEqual(
      lines.values, ["commit rename (VergeTests/MiddlewareTests.swift:\(line)): name  → Ada"])
  }

  func testMiddlewaresSeeThePreviousValueWhateverTheSubscribersDo() {
    // A commit keeps the previous value for `Changes` subscribers or for
    // middlewares; neither must lose it when the other comes or goes.
    let seen = Recorder<String>()
    let record = CommitMiddleware<Counter>(name: "record") { before, after, _ in
      seen.append("\(before.count)->\(after.count)")
    }
    let store = Store<Counter, Never>(initialState: Counter())
    store.add(middleware: record)
    store.commit { $0.count = 1 }
    XCTAssertEqual(seen.values, ["0->1"])

    let previous = Recorder<Int?>()
    let subscription = store.sinkState(dropsFirst: true) { previous.append($0.previous?.count) }
    store.commit { $0.count = 2 }
    subscription.cancel()
    store.commit { $0.count = 3 }
    XCTAssertEqual(previous.values, [1])
    XCTAssertEqual(seen.values, ["0->1", "1->2", "2->3"])

    let plain = Store<Counter, Never>(initialState: Counter())
    let changes = Recorder<Int?>()
    let watching = plain.sinkState(dropsFirst: true) { changes.append($0.previous?.count) }
    plain.add(middleware: record)
    plain.commit { $0.count = 7 }
    XCTAssertEqual(changes.values, [0])
    XCTAssertEqual(seen.values.last, "0->7")
    withExtendedLifetime(watching) {}
  }
}
