import Verge
import VergeTestSupport
import XCTest

final class AsyncSequenceTests: XCTestCase {
  func testChangesStartWithTheCurrentStateThenFollowCommits() async {
    let store = Store<Counter, Never>(initialState: Counter(count: 1))
    var iterator = store.changes.makeAsyncIterator()
    let first = await iterator.next()
    XCTAssertEqual(first?.current.count, 1)
    XCTAssertNil(first?.previous)
    store.commit { $0.count = 2 }
    let second = await iterator.next()
    XCTAssertEqual(second?.previous?.count, 1)
    XCTAssertEqual(second?.current.count, 2)
  }

  func testSlowConsumerGetsTheLatestWithTheValueItSawLastAsPrevious() async {
    let store = Store<Counter, Never>(initialState: Counter())
    var iterator = store.changes.makeAsyncIterator()
    _ = await iterator.next()  // count 0
    for value in 1...1000 { store.commit { $0.count = value } }
    let merged = await iterator.next()
    XCTAssertEqual(merged?.previous?.count, 0)
    XCTAssertEqual(merged?.current.count, 1000)
  }

  func testIterationEndsWhenTheStoreGoesAway() async {
    var store: Store<Counter, Never>? = Store(initialState: Counter())
    var iterator = store!.changes.makeAsyncIterator()
    let first = await iterator.next()
    XCTAssertEqual(first?.count, 0)
    let waiting = Task { [iterator] in
      var iterator = iterator
      return await iterator.next()
    }
    store = nil
    let end = await waiting.value
    XCTAssertNil(end)
  }

  func testCancellingTheConsumingTaskEndsIteration() async {
    let store = Store<Counter, Never>(initialState: Counter())
    let started = Gate()
    let consumer = Task {
      var count = 0
      for await _ in store.changes {
        count += 1
        started.open()
      }
      return count
    }
    await started.wait()
    consumer.cancel()
    let count = await consumer.value
    XCTAssertGreaterThanOrEqual(count, 1)
  }

  func testDerivedValuesSequence() async {
    let store = Store<Counter, Never>(initialState: Counter())
    let count = store.derived(.select(\.count))
    var iterator = count.values.makeAsyncIterator()
    let initial = await iterator.next()
    XCTAssertEqual(initial, 0)
    store.commit { $0.name = "unrelated" }
    store.commit { $0.count = 5 }
    let next = await iterator.next()
    XCTAssertEqual(next, 5)
  }

  func testALoopOverADerivedValueMadeInPlaceKeepsItAlive() async {
    let store = Store<Counter, Never>(initialState: Counter())
    let firstSeen = Gate()
    let consumer = Task.detached {
      var seen: [Int] = []
      for await doubled in store.derived(.map { $0.count * 2 }).values {
        seen.append(doubled)
        firstSeen.open()
        if doubled == 6 { break }
      }
      return seen
    }
    await firstSeen.wait()
    for _ in 0..<3 { store.commit { $0.count += 1 } }
    let seen = await consumer.value
    XCTAssertEqual(seen.first, 0)
    XCTAssertEqual(seen.last, 6, "the loop ends by its own break, not because the derived value went away")
    XCTAssertEqual(seen, seen.sorted())
  }

  func testALoopOverADerivedValueMadeInPlaceEndsWhenTheStoreGoesAway() async {
    var store: Store<Counter, Never>? = Store(initialState: Counter())
    weak let weakStore = store
    let firstSeen = Gate()
    let consumer = Task.detached { [sequence = store!.derived(.select(\.count)).values] in
      var seen: [Int] = []
      for await count in sequence {
        seen.append(count)
        firstSeen.open()
      }
      return seen
    }
    await firstSeen.wait()
    store = nil
    XCTAssertNil(weakStore, "the iteration keeps the derived value, not the store")
    let seen = await consumer.value
    XCTAssertEqual(seen, [0])
  }
}
