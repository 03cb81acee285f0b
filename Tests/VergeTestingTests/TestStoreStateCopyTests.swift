import Synchronization
import VergeTesting
import XCTest

/// A copy-on-write field that counts, in its own counter, how often its
/// storage is copied: a write to storage another state still holds.
private struct Tracked: Equatable, Sendable {
  final class Counter: Sendable {
    let copies = Atomic<Int>(0)
  }

  final class Storage: @unchecked Sendable {
    // Written only through `Tracked.value`'s setter, once the storage is
    // uniquely referenced; `Counter` is `Sendable`.
    var value: Int
    let counter: Counter
    init(_ value: Int, _ counter: Counter) {
      self.value = value
      self.counter = counter
    }
  }

  private var storage: Storage

  init(counter: Counter) {
    storage = Storage(0, counter)
  }

  var value: Int {
    get { storage.value }
    set {
      if !isKnownUniquelyReferenced(&storage) {
        storage.counter.copies.add(1, ordering: .relaxed)
        storage = Storage(storage.value, storage.counter)
      }
      storage.value = newValue
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage.value == rhs.storage.value }
}

private struct TrackedState: Equatable, Sendable {
  var tracked: Tracked
}

private struct TrackedFeature: ActionReducer {
  typealias State = TrackedState
  enum Action: Sendable, Equatable { case bump }

  func reduce(into state: inout TrackedState, action: Action) -> Effect<Action, Never> {
    state.tracked.value += 1
    return .none
  }
}

private final class TrackedMethods: ReducerType {
  typealias TargetState = TrackedState

  func bump() -> Mutation { .init { $0.tracked.value += 1 } }
}

/// A test step copies each state once, into its books: the assertion
/// closure then changes the state from before the step where it is, so a
/// copy-on-write field it writes is not copied again.
final class TestStoreStateCopyTests: XCTestCase {
  func testAnAssertedSendCopiesNoStateWhileTheClosureWrites() async {
    let counter = Tracked.Counter()
    let log = FailureLog()
    let store = TestStore(
      initialState: TrackedState(tracked: Tracked(counter: counter)), reducer: TrackedFeature(), reporter: log.reporter)
    for step in 1...3 {
      let beforeStep = counter.copies.load(ordering: .relaxed)
      var copiesByTheClosure = -1
      await store.send(.bump) {
        let before = counter.copies.load(ordering: .relaxed)
        $0.tracked.value = step
        copiesByTheClosure = counter.copies.load(ordering: .relaxed) - before
      }
      XCTAssertEqual(copiesByTheClosure, 0, "step \(step)")
      // The one copy is the store's own: its reduction writes the field
      // while the event still holds the state from before.
      XCTAssertEqual(counter.copies.load(ordering: .relaxed) - beforeStep, 1, "step \(step)")
    }
    XCTAssertEqual(store.state.tracked.value, 3)
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testAnAssertedCommitCopiesNoStateWhileTheClosureWrites() async {
    let counter = Tracked.Counter()
    let log = FailureLog()
    let store = TestStore(
      initialState: TrackedState(tracked: Tracked(counter: counter)), reducer: TrackedMethods(), reporter: log.reporter)
    let beforeStep = counter.copies.load(ordering: .relaxed)
    var copiesByTheClosure = -1
    store.commit({ $0.bump() }) {
      let before = counter.copies.load(ordering: .relaxed)
      $0.tracked.value = 1
      copiesByTheClosure = counter.copies.load(ordering: .relaxed) - before
    }
    XCTAssertEqual(copiesByTheClosure, 0)
    XCTAssertEqual(counter.copies.load(ordering: .relaxed) - beforeStep, 1)
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  /// A wrong expectation still fails with the difference: the state the
  /// closure changed in place is the expected one.
  func testAWrongExpectationStillShowsTheDifference() async {
    let counter = Tracked.Counter()
    let log = FailureLog()
    let store = TestStore(
      initialState: TrackedState(tracked: Tracked(counter: counter)), reducer: TrackedFeature(), reporter: log.reporter)
    await store.send(.bump) { $0.tracked.value = 2 }
    XCTAssertEqual(log.messages.count, 1)
    XCTAssertTrue(log.messages.first?.hasPrefix("send(.bump): the state is not what was expected:\n") ?? false)
    await store.finish()
  }
}
