@testable import Verge
import XCTest

/// A derived value's subscriptions keep it alive while its store lives, and
/// end (releasing their handlers) when the store goes away.
final class DerivedLifetimeTests: XCTestCase {
  final class Token: Sendable {}

  func testSubscriptionToADerivedValueEndsWithItsStore() {
    weak var weakToken: Token?
    var store: Store<Counter, Never>? = .init(initialState: Counter())
    let derived = store!.derived(.select(\.count))
    let subscription: StoreSubscription
    do {
      let token = Token()
      weakToken = token
      subscription = derived.sinkState { _ in withExtendedLifetime(token) {} }
    }
    XCTAssertNotNil(weakToken)
    XCTAssertFalse(subscription.isCancelled)
    store = nil
    XCTAssertNil(weakToken, "the handler outlived the store")
    XCTAssertTrue(subscription.isCancelled)
    XCTAssertEqual(derived.value, 0, "the last value stays readable")
  }

  func testSubscriptionToAStoreEndsWithTheStore() {
    weak var weakToken: Token?
    var store: Store<Counter, Never>? = .init(initialState: Counter())
    let subscription: StoreSubscription
    do {
      let token = Token()
      weakToken = token
      subscription = store!.sinkState { _ in withExtendedLifetime(token) {} }
    }
    store = nil
    XCTAssertNil(weakToken)
    XCTAssertTrue(subscription.isCancelled)
  }

  func testChainedAndCombinedSubscriptionsEndWithTheStore() {
    weak var weakToken: Token?
    var store: Store<Counter, Never>? = .init(initialState: Counter())
    let count = store!.derived(.select(\.count))
    let text = count.derived(.map { "\($0)" })
    let both = count.combined(with: text)
    var subscriptions: [StoreSubscription] = []
    do {
      let token = Token()
      weakToken = token
      subscriptions.append(text.sinkState { _ in withExtendedLifetime(token) {} })
      subscriptions.append(both.sinkState { _ in withExtendedLifetime(token) {} })
    }
    store = nil
    XCTAssertNil(weakToken)
    XCTAssertTrue(subscriptions.allSatisfy(\.isCancelled))
  }

  func testDerivedAsyncSequenceFinishesWithTheStore() async {
    var store: Store<Counter, Never>? = .init(initialState: Counter())
    let derived = store!.derived(.select(\.count))
    let finished = Task {
      var seen = 0
      for await _ in derived.changes { seen += 1 }
      return seen
    }
    // Wait until the sequence has subscribed and seen the first value.
    while derived.core.valueSubscriberCount == 0 { await Task.yield() }
    store = nil
    let seen = await finished.value
    XCTAssertGreaterThanOrEqual(seen, 0)
  }

  func testOneLinerSubscriptionKeepsDelivering() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    store.derived(.map { $0.count * 2 }).sinkState { received.append($0.current) }
      .storeWhileSourceActive()
    store.commit { $0.count = 1 }
    store.commit { $0.count = 2 }
    XCTAssertEqual(received.values, [0, 2, 4])
  }

  func testOneLinerEndsWhenTheStoreGoesAway() {
    weak var weakDerived: Derived<Int>?
    weak var weakToken: Token?
    var store: Store<Counter, Never>? = .init(initialState: Counter())
    do {
      let token = Token()
      weakToken = token
      let derived = store!.derived(.map { $0.count * 2 })
      weakDerived = derived
      derived.sinkState { _ in withExtendedLifetime(token) {} }.storeWhileSourceActive()
    }
    XCTAssertNotNil(weakDerived, "the subscription keeps its derived value")
    store = nil
    XCTAssertNil(weakDerived)
    XCTAssertNil(weakToken)
  }

  func testCancellingReleasesTheDerivedValue() {
    weak var weakDerived: Derived<Int>?
    let store = Store<Counter, Never>(initialState: Counter())
    var subscription: StoreSubscription?
    do {
      let derived = store.derived(.select(\.count))
      weakDerived = derived
      subscription = derived.sinkState { _ in }
    }
    XCTAssertNotNil(weakDerived)
    subscription?.cancel()
    XCTAssertNil(weakDerived)
  }

  func testSubscribingAfterTheStoreIsGoneDeliversOnceAndEnds() {
    var store: Store<Counter, Never>? = .init(initialState: Counter(count: 3))
    let derived = store!.derived(.select(\.count))
    store = nil
    let received = Recorder<Int>()
    let subscription = derived.sinkState { received.append($0.current) }
    XCTAssertEqual(received.values, [3])
    XCTAssertTrue(subscription.isCancelled)
  }

  func testDerivedStateCarriesPreviousAndVersion() {
    let store = Store<Counter, Never>(initialState: Counter())
    let derived = store.derived(.select(\.count))
    XCTAssertNil(derived.state.previous)
    let before = derived.version
    store.commit { $0.count = 5 }
    XCTAssertEqual(derived.state.previous, 0)
    XCTAssertEqual(derived.state.current, 5)
    XCTAssertGreaterThan(derived.version, before)
    XCTAssertEqual(derived.state.version, derived.version)
    var ran = false
    derived.state.ifChanged(\.self) { _ in ran = true }
    XCTAssertTrue(ran)
    store.commit { $0.name = "unrelated" }
    XCTAssertEqual(derived.state.previous, 0, "an unrelated commit publishes nothing")
  }
}
