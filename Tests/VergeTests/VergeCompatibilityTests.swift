import Dispatch
import Verge
import Synchronization
import VergeTestSupport
import XCTest

/// Verge's own tests, rewritten here for the names this library keeps from
/// Verge (`StateType`, `markAsModified`, `assignee`, `accumulate`, ...), to
/// check that migrating code keeps its shape and its behaviour.
final class VergeCompatibilityTests: XCTestCase {
  struct Demo: Equatable, Sendable {
    var count = 0
    var name = ""
  }

  // MARK: - StateType.reduce(modifying:current:)

  struct Tally: StateType {
    var name = ""
    var count = 0
    var countEdits = 0
    var reduceCalls = 0

    static func reduce(modifying: inout InoutRef<Tally>, current: Changes<Tally>) {
      modifying.reduceCalls += 1
      current.ifChanged(\.count).do { _ in modifying.countEdits += 1 }
    }
  }

  func testTheReduceHookRunsAtInitAsAFirstChange() {
    let store = Store<Tally, Never>(initialState: .init())
    XCTAssertEqual(store.state.countEdits, 1)
    XCTAssertEqual(store.state.reduceCalls, 1)
  }

  func testTheReduceHookSeesWhatEachCommitChanged() {
    let store = Store<Tally, Never>(initialState: .init())
    store.commit { $0.count = 1 }
    XCTAssertEqual(store.state.countEdits, 2)
    store.commit { $0.name = "a" }
    XCTAssertEqual(store.state.countEdits, 2)
    XCTAssertEqual(store.state.reduceCalls, 3)
    store.commit { _ in }
    XCTAssertEqual(store.state.reduceCalls, 3, "a commit that writes nothing runs no hook")
  }

  struct Cart: StateType {
    var prices: [Int] = [2, 3]
    var total = 0
    var totals = 0

    static func reduce(modifying: inout InoutRef<Cart>, current: Changes<Cart>) {
      guard current.hasModified(\.prices) else { return }
      modifying.total = current.prices.reduce(0, +)
      modifying.totals += 1
    }
  }

  func testTheReduceHookRunsBeforeMiddlewaresAndSubscribers() {
    let seenByMiddleware = Recorder<Int>()
    let store = Store<Cart, Never>(
      initialState: .init(),
      middlewares: [CommitMiddleware(name: "spy") { _, after, _ in seenByMiddleware.append(after.total) }])
    XCTAssertEqual(store.state.total, 5)
    let seen = Recorder<Int>()
    let subscription = store.sinkState { seen.append($0.total) }
    store.commit { $0.prices.append(10) }
    store.commit { $0.prices[0] = 2 }  // an equal value: not a modification
    XCTAssertEqual(seen.values, [5, 15, 15])
    XCTAssertEqual(seenByMiddleware.values, [15, 15])
    XCTAssertEqual(store.state.totals, 2)
    withExtendedLifetime(subscription) {}
  }

  func testAThrowingCommitRunsNoHookAndLeavesTheStateAlone() {
    struct Failure: Error {}
    let store = Store<Cart, Never>(initialState: .init())
    XCTAssertThrowsError(try store.commit { state throws(Failure) in
      state.prices.append(1)
      throw Failure()
    })
    XCTAssertEqual(store.state.current, Cart(prices: [2, 3], total: 5, totals: 1))
  }

  // MARK: - markAsModified

  func testMarkAsModifiedNotifiesWithoutWriting() {
    let store = Store<Demo, Never>(initialState: .init())
    let deliveries = Recorder<Demo>()
    let subscription = store.sinkState(dropsFirst: true) { deliveries.append($0.current) }
    store.commit { _ in }
    XCTAssertEqual(deliveries.count, 0)
    let before = store.version
    store.commit { $0.markAsModified() }
    XCTAssertEqual(deliveries.values, [Demo()])
    XCTAssertEqual(store.version, before + 1)
    subscription.cancel()
    store.commit { $0.markAsModified() }
    XCTAssertEqual(deliveries.count, 1)
    let kept = store.sinkState(dropsFirst: true) { deliveries.append($0.current) }.storeWhileSourceActive()
    XCTAssertFalse(kept.isCancelled, "storeWhileSourceActive() hands back the token it keeps")
    store.commit { $0.markAsModified() }
    XCTAssertEqual(deliveries.count, 2)
  }

  // MARK: - add(middleware:)

  func testMiddlewaresAddedAfterInitRunInOrder() {
    let store = Store<Demo, Never>(initialState: .init())
    store.add(middleware: .modify { modifying, _, current in
      current.ifChanged(\.count).do { _ in modifying.count += 1 }
    })
    store.add(middleware: .modify { modifying, _, current in
      current.ifChanged(\.name).do { _ in modifying.count = 100 }
    })
    XCTAssertEqual(store.state.count, 0)
    store.commit { $0.count += 1 }
    XCTAssertEqual(store.state.count, 2)
    store.commit { $0.name = "A" }
    XCTAssertEqual(store.state.count, 100)
  }

  // MARK: - Changes

  func testTakeIfChangedAndTheDoForm() {
    let first = Changes<Demo>(previous: nil, current: Demo(count: 1))
    XCTAssertEqual(first.takeIfChanged { $0.count }, 1)
    let same = Changes(previous: Demo(count: 1), current: Demo(count: 1, name: "x"))
    XCTAssertNil(same.takeIfChanged { $0.count })
    XCTAssertEqual(same.takeIfChanged(\.name), "x")
    XCTAssertNil(same.takeIfChanged({ $0.name }, { _, _ in true }))
    XCTAssertEqual(same.takeIfChanged({ $0.name }, ==), "x")
    XCTAssertNil(same.ifChanged(\.count).do { $0 })
    XCTAssertEqual(same.ifChanged(\.name).do { $0.uppercased() }, "X")
  }

  // MARK: - assign(to:) / assignee(_:)

  func testAssignFromAStoreMirrorsEveryChange() {
    let source = Store<Demo, Never>(initialState: .init(count: 3))
    let target = Store<Demo, Never>(initialState: .init())
    let subscription = source.assign(to: target.assignee(\.self))
    XCTAssertEqual(target.state.count, 3, "the current state is assigned at once")
    source.commit { $0.count += 1 }
    XCTAssertEqual(target.state.current, source.state.current)
    subscription.cancel()
    source.commit { $0.count += 1 }
    XCTAssertEqual(target.state.count, 4)
  }

  func testAssignFromADerivedValueWritesOneField() {
    let source = Store<Demo, Never>(initialState: .init())
    let target = Store<Demo, Never>(initialState: .init(name: "kept"))
    let subscription = source.derived(.select(\.count)).assign(to: target.assignee(\.count))
    source.commit { $0.count = 5 }
    XCTAssertEqual(target.state.current, Demo(count: 5, name: "kept"))
    withExtendedLifetime(subscription) {}
  }

  struct Holder: Equatable, Sendable { var source: Changes<Int> }

  func testAssignOfChangesIntoAChangesField() {
    let source = Store<Demo, Never>(initialState: .init())
    let count = source.derived(.select(\.count))
    let target = Store<Holder, Never>(initialState: .init(source: count.state))
    let subscription = count.assign(to: target.assignee(\.source))
    source.commit { $0.count = 2 }
    XCTAssertEqual(target.state.source.current, 2)
    XCTAssertEqual(target.state.source.previous, 0)
    withExtendedLifetime(subscription) {}
  }

  func testAnAssigneeOfAStoreThatIsGoneDoesNothing() {
    let source = Store<Demo, Never>(initialState: .init())
    var target: Store<Demo, Never>? = .init(initialState: .init())
    weak let weakTarget = target
    let subscription = source.assign(to: target!.assignee(\.self))
    target = nil
    XCTAssertNil(weakTarget, "an assignee does not keep its store alive")
    source.commit { $0.count = 1 }
    withExtendedLifetime(subscription) {}
  }

  // MARK: - bindingDerived(get:set:)

  func testABindingDerivedReadsAndWritesItsStore() {
    let source = Store<Demo, Never>(initialState: .init())
    let binding = source.bindingDerived(get: .map { $0.count }, set: { source, new in source.count = new })
    XCTAssertNil(binding.state.previous)
    XCTAssertEqual(binding.state.current, 0)
    binding.wrappedValue = 2
    XCTAssertEqual(binding.state.previous, 0)
    XCTAssertEqual(binding.state.current, 2)
    XCTAssertEqual(source.state.count, 2)
    source.commit { $0.count += 1 }
    XCTAssertEqual(binding.state.previous, 2)
    XCTAssertEqual(binding.value, 3)
    let seen = Recorder<Int>()
    let subscription = binding.sinkState { seen.append($0.current) }
    binding.wrappedValue = 7
    XCTAssertEqual(seen.values, [3, 7])
    withExtendedLifetime(subscription) {}
  }

  // MARK: - accumulate

  func testAccumulateRunsEachSinkWhenItsValueChanged() {
    let store = Store<Demo, Never>(initialState: .init())
    let counts = Recorder<Int>()
    let names = Recorder<String>()
    let branch = Recorder<String>()
    let flag = true
    let subscription = store.accumulate { state in
      state.ifChanged(\.count).do { counts.append($0) }
      state.ifChanged(\.name).do { names.append($0) }
      if flag {
        state.ifChanged({ $0.name.count }).do { branch.append("length \($0)") }
      } else {
        state.ifChanged(\.name).do { _ in branch.append("never") }
      }
    }
    store.commit { $0.count += 1 }
    store.commit { $0.name = "name" }
    store.commit { $0.name = "game" }
    XCTAssertEqual(counts.values, [0, 1])
    XCTAssertEqual(names.values, ["", "name", "game"])
    XCTAssertEqual(branch.values, ["length 0", "length 4"])
    withExtendedLifetime(subscription) {}
  }

  func testAccumulateDropFirstSkipsChangesNotDeliveries() {
    let store = Store<Demo, Never>(initialState: .init())
    let seen = Recorder<Int>()
    let subscription = store.accumulate { state in
      state.ifChanged(\.count).dropFirst(2).do { seen.append($0) }
    }
    store.commit { $0.name = "unrelated" }
    store.commit { $0.count += 1 }
    XCTAssertEqual(seen.values, [])
    store.commit { $0.count += 1 }
    XCTAssertEqual(seen.values, [2])
    withExtendedLifetime(subscription) {}
  }

  /// A sink is its place: two on one line are two sinks. A sink in generic
  /// code, used with another type at the same place, counts that as a
  /// change.
  func testAccumulateSinksAreToldApartByColumnAndByType() {
    let store = Store<Demo, Never>(initialState: .init())
    let seen = Recorder<String>()
    func sink<Value: Equatable>(_ state: AccumulationBuilder<Demo>, _ pick: (Demo) -> Value) {
      state.ifChanged(pick).do { seen.append("g\($0)") }
      state.ifChanged(pick).dropFirst().do { seen.append("d\($0)") }
    }
    let subscription = store.accumulate { state in
      state.ifChanged(\.count).do { seen.append("a\($0)") }; state.ifChanged(\.count).do { seen.append("b\($0)") }
      if state.state.count.isMultiple(of: 2) {
        sink(state) { $0.count }
      } else {
        sink(state) { "\($0.count)!" }
      }
    }
    store.commit { $0.count += 1 }
    store.commit { $0.count += 1 }
    store.commit { $0.name = "unrelated" }
    // The dropped first change is the first delivery's: the changes of
    // type that follow count on from it.
    XCTAssertEqual(seen.values, ["a0", "b0", "g0", "a1", "b1", "g1!", "d1!", "a2", "b2", "g2", "d2"])
    withExtendedLifetime(subscription) {}
  }

  // MARK: - derived(_:queue:)

  func testADerivedValueOnAQueuePublishesThereInCommitOrder() {
    let queue = DispatchQueue(label: "derived")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let store = Store<Demo, Never>(initialState: .init())
    let count = store.derived(.select(\.count), queue: .dispatch(queue))
    let seen = Recorder<Int>()
    let onQueue = Recorder<Bool>()
    let subscription = count.sinkState(dropsFirst: true) { changes in
      seen.append(changes.current)
      onQueue.append(DispatchQueue.getSpecific(key: key) == true)
    }
    for _ in 0..<5 { store.commit { $0.count += 1 } }
    queue.sync {}  // every delivery queued so far has run
    queue.sync {}  // and what those deliveries queued in turn
    XCTAssertEqual(count.value, 5)
    XCTAssertEqual(seen.values, [1, 2, 3, 4, 5])
    XCTAssertEqual(Set(onQueue.values), [true])
    XCTAssertTrue(store.derived(.select(\.count), queue: .committingThread).value == 5)
    withExtendedLifetime(subscription) {}
  }

  // MARK: - taskDetached

  func testTaskDetachedRunsUnderTheStoresTaskManager() async throws {
    let store = Store<Demo, Never>(initialState: .init())
    let gate = Gate()
    let task = store.taskDetached(key: TaskKey("load")) {
      await gate.wait()
      store.commit { $0.count = 1 }
    }
    XCTAssertEqual(store.taskManager.count(key: TaskKey("load")), 1)
    gate.open()
    try await task.value
    XCTAssertEqual(store.state.count, 1)
    let dropped = store.taskDetached(key: TaskKey("load")) {
      await suspendUntilCancelled()
      try Task.checkCancellation()
    }
    store.taskManager.cancel(key: TaskKey("load"))
    let result = await dropped.result
    XCTAssertThrowsError(try result.get())
  }

  // MARK: - Scan

  func testSinkStateWithAScanHandsOverTheRunningValue() {
    let store = Store<Demo, Never>(initialState: .init())
    let seen = Recorder<Int>()
    let subscription = store.sinkState(scan: Scan(seed: 0, accumulator: { total, changes in total += changes.count })) {
      _, total in seen.append(total)
    }
    store.commit { $0.count = 2 }
    store.commit { $0.count = 3 }
    XCTAssertEqual(seen.values, [0, 2, 5])
    let counter = Scan<Changes<Demo>, Int>.counter()
    let counted = store.sinkState(scan: counter) { _, _ in }
    store.commit { $0.name = "x" }
    XCTAssertEqual(counter.value, 2)
    withExtendedLifetime((subscription, counted)) {}
  }

  // MARK: - waitUntilAllEventConsumed

  func testWaitUntilAllEventConsumedWaitsForQueuedDeliveries() async {
    let queue = DispatchQueue(label: "consumer")
    let blocker = DispatchSemaphore(value: 0)
    queue.async { blocker.wait() }
    let store = Store<Demo, Never>(initialState: .init())
    let seen = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true, queue: .dispatch(queue), isolation: nil) {
      seen.append($0.count)
    }
    for _ in 0..<3 { store.commit { $0.count += 1 } }
    DispatchQueue.global().async { blocker.signal() }
    await store.waitUntilAllEventConsumed()
    XCTAssertEqual(seen.values, [1, 2, 3])
    withExtendedLifetime(subscription) {}
  }

  @MainActor final class Label { var text = "" }

  @MainActor
  func testWaitUntilAllEventConsumedWaitsForMainActorHandlers() async {
    let store = Store<Demo, Never>(initialState: .init())
    let label = Label()
    let subscription = store.sinkState { changes in label.text = "\(changes.count)" }
    await Task.detached { store.commit { $0.count = 7 } }.value
    await store.waitUntilAllEventConsumed()
    XCTAssertEqual(label.text, "7")
    withExtendedLifetime(subscription) {}
  }

  // MARK: - Edge and ReferenceEdge

  func testEdgesOfEquatableValuesCompareByValue() {
    let edge = Edge(wrappedValue: 1)
    var copy = edge
    copy.wrappedValue = 1
    XCTAssertNotEqual(edge.version, copy.version)
    XCTAssertEqual(edge, copy, "an equal value after a write")
    copy.wrappedValue = 2
    XCTAssertNotEqual(edge, copy)
    XCTAssertEqual(Edge(wrappedValue: (1, "a")), Edge(wrappedValue: (1, "a")), "tuples of Equatable values")
    XCTAssertNotEqual(Edge(wrappedValue: (1, "a")), Edge(wrappedValue: (1, "b")))
    XCTAssertNotEqual(
      Edge(wrappedValue: (1, 2, 3, 4, 5, 6, 7)), Edge(wrappedValue: (1, 2, 3, 4, 5, 6, 7)),
      "longer tuples than the standard library compares fall back to stamps")
  }

  struct Shared: Equatable, Sendable {
    @ReferenceEdge var numbers = [1, 2, 3]
  }

  func testAReferenceEdgeIsCopiedOnWrite() {
    let state = Shared()
    var other = state
    XCTAssertTrue(other.$numbers.sharesStorage(with: state.$numbers))
    XCTAssertEqual(other, state)
    other.numbers.append(4)
    XCTAssertFalse(other.$numbers.sharesStorage(with: state.$numbers))
    XCTAssertEqual(state.numbers, [1, 2, 3])
    XCTAssertEqual(other.numbers, [1, 2, 3, 4])
    XCTAssertNotEqual(other, state)
    var alone = Shared()
    let before = alone.$numbers
    alone.numbers[0] = 9
    XCTAssertFalse(alone.$numbers.sharesStorage(with: before), "a copy kept elsewhere is never written")
    XCTAssertEqual(before.wrappedValue, [1, 2, 3])
  }

  // MARK: - ifChanged: a tuple as one argument, comparators

  func testATupleSelectionMayBeTakenSpreadOrAsOneArgument() {
    let changes = Changes(previous: Demo(count: 1, name: "a"), current: Demo(count: 1, name: "b"))
    let spread = changes.ifChanged({ ($0.name, $0.count) }) { name, count in "\(name)\(count)" }
    let whole = changes.ifChanged({ ($0.name, $0.count) }) { pair in "\(pair.0)\(pair.1)" }
    let typed = changes.ifChanged({ ($0.name, $0.count) }) { (pair: (String, Int)) in pair.1 }
    let single = changes.ifChanged({ $0.count }) { count in count }
    XCTAssertEqual(spread, "b1")
    XCTAssertEqual(whole, "b1")
    XCTAssertEqual(typed, 1)
    XCTAssertNil(single)
    let unchanged = changes.ifChanged({ ($0.count, $0.count) }) { pair in pair.0 }
    XCTAssertNil(unchanged)
  }

  func testComparatorsCombineAsVergesDo() {
    let caseInsensitive = AnyEqualityComparator<String> { $0.lowercased() == $1.lowercased() }
    let same = EqualityComparator<String>().or(caseInsensitive)
    XCTAssertTrue(same("A", "a"))
    XCTAssertFalse(same("A", "b"))
    let both = EqualityComparator<String>().and(caseInsensitive)
    XCTAssertFalse(both("A", "a"))
    XCTAssertTrue(both("a", "a"))
    let changes = Changes(previous: Demo(name: "Verge"), current: Demo(name: "VERGE"))
    XCTAssertNil(changes.ifChanged({ $0.name }, same) { $0 })
    XCTAssertEqual(changes.ifChanged({ $0.name }, EqualityComparator()) { $0 }, "VERGE")
  }

  // MARK: - Derived.sinkValue

  func testSinkValueIsSinkStateUnderVergesName() {
    let store = Store<Demo, Never>(initialState: .init())
    let seen = Recorder<Int>()
    let subscription = store.derived(.select(\.count)).sinkValue { seen.append($0.current) }
    store.commit { $0.count = 1 }
    store.commit { $0.name = "unrelated" }
    XCTAssertEqual(seen.values, [0, 1])
    withExtendedLifetime(subscription) {}
  }

  func testTheDoFormWithAClosureSelection() {
    let changes = Changes(previous: Demo(count: 1, name: "a"), current: Demo(count: 1, name: "b"))
    XCTAssertNil(changes.ifChanged({ $0.count }).do { $0 })
    XCTAssertEqual(changes.ifChanged({ ($0.name, $0.count) }).do { pair in pair.0 }, "b")
    XCTAssertNil(changes.ifChanged({ ($0.count, $0.count, $0.count) }).do { $0.0 })
  }

  struct Counted: Equatable, Sendable {
    var count = 0
    var middlewareRuns = 0
  }

  func testMiddlewaresAddedWhileOtherThreadsCommit() {
    let store = Store<Counted, Never>(initialState: .init())
    concurrently(threads: 4) { thread in
      if thread == 0 {
        for _ in 0..<50 {
          store.add(middleware: CommitMiddleware(name: "count") { _, after, _ in after.middlewareRuns += 1 })
        }
      } else {
        for _ in 0..<200 { store.commit { $0.count += 1 } }
      }
    }
    XCTAssertEqual(store.state.count, 600)
    let before = store.state.middlewareRuns
    store.commit { $0.count += 1 }
    XCTAssertEqual(store.state.middlewareRuns - before, 50, "every added middleware runs on the next commit")
  }

  /// Queued deliveries (events that waited in the store's queue, such as a
  /// first delivery or a change committed while another was delivering) take
  /// a ticket too: waiting returns only once they have run.
  func testWaitingCoversEveryDeliveryScheduledOnAQueue() async {
    for _ in 0..<50 {
      let queue = DispatchQueue(label: "subscriber")
      let blocker = DispatchSemaphore(value: 0)
      queue.async { blocker.wait() }
      let store = Store<Demo, Never>(initialState: .init())
      let seen = Mutex<[Int]>([])
      let subscription = store.derived(.select(\.count)).sinkState(queue: .dispatch(queue)) { changes in
        seen.withLock { $0.append(changes.current) }
      }
      store.commit { $0.count = 3 }
      DispatchQueue.global().async { blocker.signal() }
      await store.waitUntilAllEventConsumed()
      XCTAssertEqual(seen.withLock { $0 }, [0, 3])
      subscription.cancel()
    }
  }

  func testADerivedValueOnAQueueIsCurrentOnceItsDeliveriesAreConsumed() async {
    let queue = DispatchQueue(label: "derived")
    let blocker = DispatchSemaphore(value: 0)
    queue.async { blocker.wait() }
    let store = Store<Demo, Never>(initialState: .init())
    let count = store.derived(.select(\.count), queue: .dispatch(queue))
    store.commit { $0.count = 3 }
    DispatchQueue.global().async { blocker.signal() }
    await count.waitUntilAllEventConsumed()
    XCTAssertEqual(count.value, 3)
  }
}

// MARK: - Names measured against Verge's own suite

extension VergeCompatibilityTests {
  @MainActor final class Log { var values: [Int] = [] }

  final class CounterDriver: StoreDriverType {
    let store = Store<Demo, Never>(initialState: .init())
  }

  func testADriverIsAComponentWithMiddlewaresAndATypedSubscription() {
    let driver = CounterDriver()
    driver.add(middleware: .modify { modifying, _, current in
      current.ifChanged(\.name).do { _ in modifying.count += 10 }
    })
    let seen = Recorder<Int>()
    let subscription: StoreStateSubscription? = driver.sinkState { seen.append($0.count) }
    driver.commit { $0.name = "a" }
    driver.commit { $0.count += 1 }
    XCTAssertEqual(seen.values, [0, 10, 11], "the middleware added on the driver runs in its commits")
    withExtendedLifetime(subscription) {}
  }

  struct Marked: StateType {
    var count = 0
  }

  func testAStateTypeWithoutAHookCommitsAsAnyState() {
    let store = Store<Marked, Never>(initialState: .init())
    let seen = Recorder<Int>()
    let subscription = store.sinkState { seen.append($0.count) }
    store.commit { $0.count = 2 }
    store.commit { _ in }
    XCTAssertEqual(seen.values, [0, 2])
    XCTAssertEqual(store.version, 1, "an empty commit still changes nothing")
    withExtendedLifetime(subscription) {}
  }

  func testPrimitiveValueReadsAndWritesTheCurrentValue() {
    let store = Store<Demo, Never>(initialState: .init(count: 3))
    let doubled = store.derived(.map { $0.count * 2 })
    XCTAssertEqual(doubled.primitiveValue, 6)
    let count = store.bindingDerived(get: .map(\.count), set: { state, value in state.count = value })
    count.primitiveValue = 5
    XCTAssertEqual(store.state.count, 5)
    XCTAssertEqual(count.primitiveValue, 5)
    XCTAssertEqual(doubled.primitiveValue, 10)
  }

  func testClosureComparatorsWrittenAsAnyCompose() {
    struct Pair: Sendable { var a = 0, b = 0 }
    let either = OrComparator<Pair, _, _>(.any { @Sendable in $0.a == $1.a }, .any { @Sendable in $0.b == $1.b })
    let both = AndComparator<Pair, _, _>(.any { @Sendable in $0.a == $1.a }, .any { @Sendable in $0.b == $1.b })
    XCTAssertTrue(either(Pair(a: 1, b: 1), Pair(a: 1, b: 2)))
    XCTAssertFalse(either(Pair(a: 1, b: 1), Pair(a: 2, b: 2)))
    XCTAssertFalse(both(Pair(a: 1, b: 1), Pair(a: 1, b: 2)))
    let all = both.and(.any { @Sendable in $0.a + $0.b == $1.a + $1.b })
    XCTAssertTrue(all(Pair(a: 1, b: 2), Pair(a: 1, b: 2)))
    XCTAssertFalse(all(Pair(a: 1, b: 2), Pair(a: 1, b: 3)))
  }

  func testMainIsolatedHandlersRunOnTheMainActorFromNonisolatedCode() async {
    let store = Store<Demo, Never>(initialState: .init())
    let log = Log()
    let names = Log()
    let derivedLog = Log()
    let sink = store.sinkState(queue: .mainIsolated()) { changes in
      MainActor.assertIsolated()
      log.values.append(changes.count)
    }
    let accumulation = store.accumulate(queue: .mainIsolated()) { state in
      state.ifChanged(\.name).dropFirst().do { name in names.values.append(name.count) }
    }
    let derived = store.derived(.map(\.count)).sinkState(queue: .mainIsolated()) { changes in
      derivedLog.values.append(changes.current)
    }
    await Task.detached {
      store.commit { $0.count = 1 }
      store.commit { $0.name = "ab" }
    }.value
    await store.waitUntilAllEventConsumed()
    let values = await log.values
    XCTAssertEqual(values, [0, 1, 1], "every change, in commit order")
    let derivedValues = await derivedLog.values
    XCTAssertEqual(derivedValues, [0, 1], "the derived value publishes once per change of its output")
    let nameLengths = await names.values
    XCTAssertEqual(nameLengths, [2], "the first delivery dropped")
    withExtendedLifetime((sink, accumulation, derived)) {}
  }

  func testTheSharedSerialBackgroundQueueDeliversInOrder() async {
    let store = Store<Demo, Never>(initialState: .init())
    let seen = Recorder<Int>()
    let subscription = store.sinkState(queue: .asyncSerialBackground) { changes in
      XCTAssertFalse(Thread.isMainThread)
      seen.append(changes.count)
    }
    for value in 1...20 { store.commit { $0.count = value } }
    await store.waitUntilAllEventConsumed()
    XCTAssertEqual(seen.values, Array(0...20))
    withExtendedLifetime(subscription) {}
  }
}

extension VergeCompatibilityTests {
  @MainActor
  func testATaskRunsOnTheCallersActorAndADetachedOneDoesNot() async throws {
    let store = Store<Demo, Never>(initialState: .init())
    let label = Label()
    try await store.task {
      MainActor.assertIsolated()
      label.text = "loaded"   // main-actor state, touched directly as in Verge
    }.value
    XCTAssertEqual(label.text, "loaded")
    try await store.taskDetached {
      XCTAssertFalse(Thread.isMainThread)
    }.value
    try await Task.detached {
      try await store.task { XCTAssertFalse(Thread.isMainThread, "from nonisolated code, off the main actor") }.value
    }.value
  }
}
