import Synchronization
import Verge
import XCTest

final class SubscriptionLifetimeTests: XCTestCase {
  func testCancelStopsDelivery() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { received.append($0.count) }
    store.commit { $0.count = 1 }
    subscription.cancel()
    subscription.cancel()
    XCTAssertTrue(subscription.isCancelled)
    store.commit { $0.count = 2 }
    XCTAssertEqual(received.values, [1])
  }

  func testReleasingTheTokenCancels() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    var subscription: StoreSubscription? = store.sinkState(dropsFirst: true) { received.append($0.count) }
    store.commit { $0.count = 1 }
    _ = subscription
    subscription = nil
    store.commit { $0.count = 2 }
    XCTAssertEqual(received.values, [1])
  }

  func testStoreInSetKeepsItAsLongAsTheSet() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    var bag = Set<StoreSubscription>()
    store.sinkState(dropsFirst: true) { received.append($0.count) }.store(in: &bag)
    store.commit { $0.count = 1 }
    bag.removeAll()
    store.commit { $0.count = 2 }
    XCTAssertEqual(received.values, [1])
  }

  func testStoreWhileSourceActiveLivesWithTheStoreAndDoesNotKeepItAlive() {
    let received = Recorder<Int>()
    weak var weakStore: Store<Counter, Never>?
    do {
      let store = Store<Counter, Never>(initialState: Counter())
      weakStore = store
      store.sinkState(dropsFirst: true) { received.append($0.count) }.storeWhileSourceActive()
      store.sinkActivity { _ in }.storeWhileSourceActive()
      store.commit { $0.count = 1 }
      store.commit { $0.count = 2 }
    }
    XCTAssertNil(weakStore, "subscriptions kept the store alive")
    XCTAssertEqual(received.values, [1, 2])
  }

  func testReleasedStoreWithEverythingAttachedIsDeallocated() async {
    weak var weakStore: Store<Counter, String>?
    weak var weakDerived: Derived<Int>?
    var tokens = Set<StoreSubscription>()
    do {
      let store = Store<Counter, String>(initialState: Counter())
      weakStore = store
      let derived = store.derived(.select(\.count))
      weakDerived = derived
      store.sinkState { _ in }.store(in: &tokens)
      derived.sinkState { _ in }.store(in: &tokens)
      store.sinkActivity { _ in }.store(in: &tokens)
      _ = store.state.count
      store.task { try await Task.sleep(for: .seconds(60)) }
      store.commit { $0.count = 1 }
    }
    XCTAssertNil(weakStore)
    XCTAssertNil(weakDerived)
    XCTAssertEqual(tokens.count, 3)
  }

  func testCancellingFromInsideACommitIsSafe() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { received.append($0.count) }
    store.commit { state in
      state.count = 1
      subscription.cancel()
    }
    store.commit { $0.count = 2 }
    XCTAssertEqual(received.values, [])
  }

  func testConcurrentSubscribeCommitAndCancelStayConsistent() {
    let store = Store<Counter, Never>(initialState: Counter())
    let violations = Atomic<Int>(0)
    concurrently(threads: 4) { thread in
      for round in 0..<100 {
        if thread == 0 {
          store.commit { $0.count += 1 }
        } else {
          let last = SharedLock<Int>(-1)
          let token = store.sinkState { changes in
            last.withLock { last in
              if changes.count < last { violations.add(1, ordering: .relaxed) }
              last = changes.count
            }
          }
          if round % 2 == 0 { token.cancel() }
        }
      }
    }
    XCTAssertEqual(violations.load(ordering: .relaxed), 0)
    XCTAssertEqual(store.state.count, 100)
  }
}
