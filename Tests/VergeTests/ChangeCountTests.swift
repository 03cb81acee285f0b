import Verge
import XCTest

/// The change count that libraries built on Verge use to skip re-reading a
/// state that has not changed.
final class ChangeCountTests: XCTestCase {
  func testTheCountGrowsWithEachChangeAndOnlyThen() {
    let store = Store<Counter, String>(initialState: Counter())
    let start = store.version
    store.commit { $0.count += 1 }
    let afterChange = store.version
    XCTAssertGreaterThan(afterChange, start)

    store.commit { _ in }                                     // writes nothing
    store.send("an activity")                                 // not state
    XCTAssertThrowsError(try store.commit { (state) throws(ValidationError) in
      state.count = 99
      throw ValidationError(reason: "no")
    })
    XCTAssertEqual(store.version, afterChange)

    store.commit { $0.name = "x" }
    XCTAssertGreaterThan(store.version, afterChange)
  }

  func testAWriteCountsEvenWhenItAssignsAnEqualValue() {
    let store = Store<Counter, Never>(initialState: Counter(count: 3))
    let subscription = store.sinkState { _ in }
    let before = store.version
    store.commit { $0.count = 3 }
    XCTAssertGreaterThan(store.version, before)
    XCTAssertEqual(store.version, store.version)
    subscription.cancel()
  }

  func testCountedReadsAndCommitsAgreeWithTheCount() {
    let store = Store<Counter, Never>(initialState: Counter())
    store.commit { $0.count = 4 }
    let (state, count) = store.countedState()
    XCTAssertEqual(state.count, 4)
    XCTAssertEqual(count, store.version)

    let (result, countAfter) = store.countedCommit(trace: CommitTrace(name: "t", file: #fileID, function: #function, line: #line)) { ref -> Int in
      ref.count += 1
      return ref.count
    }
    XCTAssertEqual(result, 5)
    XCTAssertGreaterThan(countAfter, count)
    XCTAssertEqual(countAfter, store.version)

    let (_, unchanged) = store.countedCommit(trace: CommitTrace(name: "t", file: #fileID, function: #function, line: #line)) { _ in }
    XCTAssertEqual(unchanged, countAfter)
  }

  /// A counted commit takes the plain locked path while nobody receives
  /// values and the general one otherwise; both count and deliver.
  func testACountedCommitDeliversWhetherOrNotAnyoneListened() {
    let store = Store<Counter, Never>(initialState: Counter())
    let trace = CommitTrace(name: "t", file: #fileID, function: #function, line: #line)
    let (_, quiet) = store.countedCommit(trace: trace) { $0.count = 1 }
    XCTAssertEqual(quiet, store.version)

    let seen = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { seen.append($0.count) }
    let (_, heard) = store.countedCommit(trace: trace) { $0.count = 2 }
    XCTAssertGreaterThan(heard, quiet)
    XCTAssertEqual(heard, store.version)
    XCTAssertEqual(seen.values, [2])

    let derived = store.derived(.select(\.count))
    _ = store.countedCommit(trace: trace) { $0.count = 3 }
    XCTAssertEqual(derived.value, 3)
    XCTAssertEqual(seen.values, [2, 3])
    subscription.cancel()
  }
}
