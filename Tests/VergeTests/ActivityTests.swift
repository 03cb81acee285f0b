import Verge
import XCTest

final class ActivityTests: XCTestCase {
  enum Event: Equatable, Sendable {
    case saved(Int)
    case failed
  }

  func testActivitiesReachSubscribersInOrderAndOnlyAfterSubscribing() {
    let store = Store<Counter, Event>(initialState: Counter())
    store.send(.failed)  // nobody listens yet: dropped
    let received = Recorder<Event>()
    let subscription = store.sinkActivity { received.append($0) }
    store.send(.saved(1))
    store.send(.saved(2))
    XCTAssertEqual(received.values, [.saved(1), .saved(2)])
    subscription.cancel()
    store.send(.failed)
    XCTAssertEqual(received.values, [.saved(1), .saved(2)])
  }

  func testActivitiesAndChangesShareOneOrder() {
    let store = Store<Counter, Event>(initialState: Counter())
    let log = Recorder<String>()
    let a = store.sinkState(dropsFirst: true) { log.append("count \($0.count)") }
    let b = store.sinkActivity { log.append("activity \($0)") }
    store.commit { $0.count = 1 }
    store.send(.saved(1))
    store.commit { $0.count = 2 }
    XCTAssertEqual(log.values, ["count 1", "activity saved(1)", "count 2"])
    withExtendedLifetime((a, b)) {}
  }

  func testActivitySequenceEndsWhenTheStoreGoesAway() async {
    var store: Store<Counter, Event>? = Store(initialState: Counter())
    let stream = store!.activities()
    store!.send(.saved(1))
    store!.send(.saved(2))
    store = nil
    var received: [Event] = []
    for await event in stream { received.append(event) }
    XCTAssertEqual(received, [.saved(1), .saved(2)])
  }

  func testActivitySequenceBufferIsBounded() async {
    let store = Store<Counter, Event>(initialState: Counter())
    let stream = store.activities(bufferingPolicy: .bufferingNewest(2))
    for i in 1...10 { store.send(.saved(i)) }
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    XCTAssertEqual(first, .saved(9))
    XCTAssertEqual(second, .saved(10))
  }
}
