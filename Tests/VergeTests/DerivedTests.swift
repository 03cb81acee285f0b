import Synchronization
import Verge
import XCTest

final class DerivedTests: XCTestCase {
  struct Shop: Equatable, Sendable {
    var items: [String] = []
    var filter = ""
    var count = 0
    var title = "Shop"
  }

  func testSelectFollowsTheStoreAndPublishesOnlyOnChange() {
    let store = Store<Shop, Never>(initialState: Shop())
    let count = store.derived(.select(\.count))
    let published = Recorder<Changes<Int>>()
    let subscription = count.sinkState { published.append($0) }
    store.commit { $0.title = "unrelated" }
    store.commit { $0.count = 1 }
    store.commit { $0.count = 1 }
    store.commit { $0.count = 2 }
    XCTAssertEqual(count.value, 2)
    XCTAssertEqual(published.values.map(\.current), [0, 1, 2])
    XCTAssertNil(published.values[0].previous)
    XCTAssertEqual(published.values[2].previous, 1)
    withExtendedLifetime(subscription) {}
  }

  func testMapOverKeyPathsRunsOnlyWhenAnInputChanged() {
    let store = Store<Shop, Never>(initialState: Shop(items: ["apple", "pear", "plum"]))
    let runs = Atomic<Int>(0)
    let visible = store.derived(
      .map(\.items, \.filter) { items, filter in
        runs.add(1, ordering: .relaxed)
        return filter.isEmpty ? items : items.filter { $0.hasPrefix(filter) }
      })
    XCTAssertEqual(visible.value, ["apple", "pear", "plum"])
    let afterStart = runs.load(ordering: .relaxed)
    store.commit { $0.count += 1 }
    store.commit { $0.title = "x" }
    XCTAssertEqual(runs.load(ordering: .relaxed), afterStart, "ran without an input change")
    store.commit { $0.filter = "p" }
    XCTAssertEqual(visible.value, ["pear", "plum"])
    XCTAssertEqual(runs.load(ordering: .relaxed), afterStart + 1)
  }

  func testMapOverTheWholeStateAndChaining() {
    let store = Store<Shop, Never>(initialState: Shop())
    let doubled = store.derived(.map { $0.count * 2 })
    let label = doubled.derived(.map { "\($0) items" })
    let labels = Recorder<String>()
    let subscription = label.sinkState(dropsFirst: true) { labels.append($0.current) }
    store.commit { $0.count = 2 }
    store.commit { $0.title = "same count" }
    XCTAssertEqual(label.value, "4 items")
    XCTAssertEqual(labels.values, ["4 items"])
    withExtendedLifetime(subscription) {}
  }

  func testCustomComparerForNonEquatableOutput() {
    struct Snapshot: Sendable {
      let count: Int
      let stamp: Int
    }
    let store = Store<Shop, Never>(initialState: Shop())
    let stamp = Atomic<Int>(0)
    let snapshot = store.derived(
      .map(
        { Snapshot(count: $0.count, stamp: stamp.add(1, ordering: .relaxed).newValue) },
        comparedBy: { $0.count == $1.count }))
    let published = Recorder<Int>()
    let subscription = snapshot.sinkState(dropsFirst: true) { published.append($0.current.count) }
    store.commit { $0.title = "t" }
    store.commit { $0.count = 3 }
    XCTAssertEqual(published.values, [3])
    withExtendedLifetime(subscription) {}
  }

  func testCombinedHoldsTheLatestOfEachSource() {
    let store = Store<Shop, Never>(initialState: Shop())
    let count = store.derived(.select(\.count))
    let title = store.derived(.select(\.title))
    let both = count.combined(with: title)
    let summary = Recorder<String>()
    let subscription = both.sinkState { changes in
      summary.append("\(changes.current.0) \(changes.current.1)")
    }
    store.commit { $0.count = 1 }
    store.commit { $0.title = "Open" }
    store.commit { $0.filter = "ignored" }
    XCTAssertEqual(both.value.0, 1)
    XCTAssertEqual(both.value.1, "Open")
    XCTAssertEqual(summary.values, ["0 Shop", "1 Shop", "1 Open"])
    withExtendedLifetime(subscription) {}
  }

  func testDerivedDoesNotKeepTheStoreAlive() {
    weak var weakStore: Store<Shop, Never>?
    var derived: Derived<Int>?
    do {
      let store = Store<Shop, Never>(initialState: Shop(count: 4))
      weakStore = store
      derived = store.derived(.select(\.count))
      store.commit { $0.count = 5 }
    }
    XCTAssertNil(weakStore)
    XCTAssertEqual(derived?.value, 5, "keeps its last value")
  }

  func testStoreDoesNotKeepUnusedDerivedValuesAlive() {
    let store = Store<Shop, Never>(initialState: Shop())
    weak var weakDerived: Derived<Int>?
    weak var weakChained: Derived<String>?
    do {
      let derived = store.derived(.select(\.count))
      let chained = derived.derived(.map { "\($0)" })
      weakDerived = derived
      weakChained = chained
      let subscription = chained.sinkState { _ in }
      store.commit { $0.count = 1 }
      XCTAssertEqual(chained.value, "1")
      subscription.cancel()
    }
    XCTAssertNil(weakChained)
    XCTAssertNil(weakDerived)
    store.commit { $0.count = 2 }  // nothing left to update
  }

  func testChainedDerivedKeepsItsSourceAlive() {
    let store = Store<Shop, Never>(initialState: Shop())
    let chained = store.derived(.select(\.count)).derived(.map { $0 + 100 })
    store.commit { $0.count = 1 }
    XCTAssertEqual(chained.value, 101)
  }

  func testStoreWhileSourceActiveOnDerivedLivesAsLongAsTheStore() {
    let store = Store<Shop, Never>(initialState: Shop())
    let received = Recorder<Int>()
    weak var weakDerived: Derived<Int>?
    var derived: Derived<Int>? = store.derived(.select(\.count))
    weakDerived = derived
    derived!.sinkState(dropsFirst: true) { received.append($0.current) }.storeWhileSourceActive()
    store.commit { $0.count = 1 }
    derived = nil
    XCTAssertNotNil(weakDerived, "its subscription keeps the derived value alive")
    store.commit { $0.count = 2 }
    XCTAssertEqual(received.values, [1, 2])
  }

  func testManyDerivedValuesUnderConcurrentCommitsEndConsistent() {
    let store = Store<Shop, Never>(initialState: Shop())
    let derived = (0..<20).map { offset in store.derived(.map { $0.count + offset }) }
    let monotonic = Atomic<Bool>(true)
    let tokens = derived.map { value in
      let last = SharedLock(Int.min)
      return value.sinkState { changes in
        last.withLock { last in
          if changes.current < last { monotonic.store(false, ordering: .relaxed) }
          last = changes.current
        }
      }
    }
    concurrently(threads: 4) { _ in
      for _ in 0..<100 { store.commit { $0.count += 1 } }
    }
    for (offset, value) in derived.enumerated() {
      XCTAssertEqual(value.value, 400 + offset)
    }
    XCTAssertTrue(monotonic.load(ordering: .relaxed))
    withExtendedLifetime(tokens) {}
  }

  func testSelectThroughAKeyPathThatIsNotAStoredProperty() {
    let store = Store<Shop, Never>(initialState: Shop(items: ["a"]))
    let itemCount = store.derived(.select(\.items.count))
    let first = store.derived(.select(\.items[0]))
    let counts = Recorder<Int>()
    let firsts = Recorder<String>()
    let tokens = [
      itemCount.sinkState(dropsFirst: true) { counts.append($0.current) },
      first.sinkState(dropsFirst: true) { firsts.append($0.current) },
    ]
    store.commit { $0.title = "unrelated" }
    store.commit { $0.items.append("b") }
    store.commit { $0.items[0] = "z" }
    XCTAssertEqual(counts.values, [2])
    XCTAssertEqual(firsts.values, ["z"])
    XCTAssertEqual(itemCount.value, 2)
    withExtendedLifetime(tokens) {}
  }

  func testCustomStepIsMadeOncePerDerivedValueAndMaySkipInputs() {
    let store = Store<Shop, Never>(initialState: Shop())
    let made = Atomic<Int>(0)
    // Publishes the count only when it is even; an odd count is "no change".
    let pipeline = Pipeline<Shop, Int>(comparedBy: ==) {
      made.add(1, ordering: .relaxed)
      return { $0.count.isMultiple(of: 2) ? $0.count : nil }
    }
    let even = store.derived(pipeline)
    let alsoEven = store.derived(pipeline)
    let published = Recorder<Int>()
    let token = even.sinkState(dropsFirst: true) { published.append($0.current) }
    for _ in 0..<5 { store.commit { $0.count += 1 } }
    XCTAssertEqual(made.load(ordering: .relaxed), 2)
    XCTAssertEqual(published.values, [2, 4])
    XCTAssertEqual(even.value, 4)
    XCTAssertEqual(alsoEven.value, 4)
    withExtendedLifetime(token) {}
  }

  func testDerivedValueReleasedDuringADeliveryIsNotUpdatedAgain() {
    let store = Store<Shop, Never>(initialState: Shop())
    let runs = Atomic<Int>(0)
    let first = store.derived(.select(\.count))
    let later = SharedLock<Derived<Int>?>(
      store.derived(.map { state in
        runs.add(1, ordering: .relaxed)
        return state.count
      }))
    XCTAssertEqual(runs.load(ordering: .relaxed), 1)
    // `first` is updated before `later` in the same delivery; its subscriber
    // releases `later`, whose update must then be skipped.
    let token = first.sinkState(dropsFirst: true) { _ in
      let released = later.withLock { later -> Derived<Int>? in
        defer { later = nil }
        return later
      }
      withExtendedLifetime(released) {}
    }
    store.commit { $0.count = 1 }
    XCTAssertEqual(runs.load(ordering: .relaxed), 1, "ran after its derived value went away")
    store.commit { $0.count = 2 }
    XCTAssertEqual(runs.load(ordering: .relaxed), 1)
    XCTAssertEqual(first.value, 2)
    withExtendedLifetime(token) {}
  }

  func testDerivedFromAComponent() {
    final class Model: StoreComponentType {
      let store = Store<Shop, Never>(initialState: Shop())
    }
    let model = Model()
    let count = model.derived(.select(\.count))
    model.commit { $0.count = 9 }
    XCTAssertEqual(count.value, 9)
    XCTAssertEqual(model.state.count, 9)
  }
}
