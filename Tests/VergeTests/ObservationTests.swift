import Observation
import Synchronization
@testable import Verge
import XCTest

final class ObservationTests: XCTestCase {
  /// Tracks `read` and returns a flag that turns true when the reader is invalidated.
  private func track<T>(_ read: @escaping () -> T) -> Atomic<Bool>.Reference {
    let flag = Atomic<Bool>.Reference()
    withObservationTracking {
      _ = read()
    } onChange: {
      flag.set()
    }
    return flag
  }

  func testReaderIsInvalidatedOnlyByThePropertyItRead() {
    let store = Store<Counter, Never>(initialState: Counter())
    let countReader = track { store.state.count }
    let nameReader = track { store.state.name }

    store.commit { $0.name = "changed" }
    XCTAssertFalse(countReader.isSet, "a commit that does not change count invalidated its reader")
    XCTAssertTrue(nameReader.isSet)

    store.commit { $0.count += 1 }
    XCTAssertTrue(countReader.isSet)
  }

  func testWritingAnEqualValueDoesNotInvalidate() {
    let store = Store<Counter, Never>(initialState: Counter(count: 3))
    let reader = track { store.state.count }
    store.commit { $0.count = 3 }
    XCTAssertFalse(reader.isSet)
    store.commit { $0.count = 4 }
    XCTAssertTrue(reader.isSet)
  }

  func testReadingTheWholeStateTracksEverything() {
    let store = Store<Counter, Never>(initialState: Counter())
    let reader = track { store.state.current }
    store.commit { $0.flags.append(true) }
    XCTAssertTrue(reader.isSet)
  }

  func testReaderCanTrackAgainAfterBeingInvalidated() {
    let store = Store<Counter, Never>(initialState: Counter())
    let first = track { store.state.count }
    store.commit { $0.count = 1 }
    XCTAssertTrue(first.isSet)
    let second = track { store.state.count }
    store.commit { $0.name = "x" }
    XCTAssertFalse(second.isSet)
    store.commit { $0.count = 2 }
    XCTAssertTrue(second.isSet)
  }

  func testStoreStopsFollowingOnceNothingReadIsWatched() {
    let store = Store<Counter, Never>(initialState: Counter())
    XCTAssertEqual(store.core.valueSubscriberCount, 0)
    let reader = track { store.state.count }  // armed until what it read changes
    XCTAssertEqual(store.core.valueSubscriberCount, 1)
    store.commit { $0.name = "other" }
    XCTAssertEqual(store.core.valueSubscriberCount, 1)
    store.commit { $0.count = 1 }
    XCTAssertTrue(reader.isSet)
    XCTAssertEqual(store.core.valueSubscriberCount, 0, "commits keep paying for a read nobody watches")
  }

  func testRowReaderIsInvalidatedOnlyByItsRow() {
    let store = Store<RowList, Never>(initialState: RowList())
    let reader7 = track { store.state[\.rows[id: 7]] }
    let reader8 = track { store.state[\.rows[id: 8]] }
    let memberReader = track { store.state.rows[id: 8] }

    store.commit { $0.rows[id: 7]?.title = "seven" }
    XCTAssertTrue(reader7.isSet)
    XCTAssertFalse(reader8.isSet, "a commit of row 7 invalidated the reader of row 8")
    XCTAssertTrue(memberReader.isSet, "a member read tracks the whole collection")

    store.commit { $0.rows[id: 8]?.title = "Row 8" }  // an equal value
    XCTAssertFalse(reader8.isSet)
    store.commit { $0.rows[id: 8] = nil }
    XCTAssertTrue(reader8.isSet)
  }

  func testReadersOfOneRowShareOneCheckAndAreAllInvalidatedByIt() {
    let store = Store<RowList, Never>(initialState: RowList())
    // Two readers per row, as two views showing the same row.
    let readers = (0..<10).map { id in (track { store.state[\.rows[id: id]] }, track { store.state[\.rows[id: id]] }) }
    XCTAssertEqual(store.observation.armed.withLock { $0.checks.count }, 10, "readers of one key path keep one check")

    store.commit { $0.rows[id: 4]?.title = "four" }
    for (id, (first, second)) in readers.enumerated() {
      XCTAssertEqual(first.isSet, id == 4, "reader of row \(id)")
      XCTAssertEqual(second.isSet, id == 4, "second reader of row \(id)")
    }
    XCTAssertEqual(store.observation.armed.withLock { $0.checks.count }, 9, "the fired check is disarmed")

    let again = track { store.state[\.rows[id: 4]] }
    XCTAssertEqual(store.observation.armed.withLock { $0.checks.count }, 10)
    store.commit { $0.rows[id: 9]?.title = "nine" }
    XCTAssertFalse(again.isSet)
    XCTAssertTrue(readers[9].0.isSet && readers[9].1.isSet)
  }

  func testRowReaderIsNotInvalidatedByAnUnrelatedField() {
    let store = Store<RowList, Never>(initialState: RowList())
    let reader = track { store.state[\.rows[id: 3]] }
    store.commit { $0.filter = "unread" }
    XCTAssertFalse(reader.isSet)
    store.commit { $0.rows[id: 3]?.title = "three" }
    XCTAssertTrue(reader.isSet)
  }

  func testIDsReaderIsInvalidatedByInsertionsAndRemovalsOnly() {
    let store = Store<RowList, Never>(initialState: RowList())
    let beforeInsert = track { store.state[\.rows.ids] }
    store.commit { $0.rows[id: 5]?.title = "five" }
    store.commit { $0.filter = "unread" }
    XCTAssertFalse(beforeInsert.isSet, "a row edit invalidated a reader of the ids")
    store.commit { $0.rows.append(ObservedRow(id: 10, title: "Row 10")) }
    XCTAssertTrue(beforeInsert.isSet)

    let beforeRemove = track { store.state[\.rows.ids] }
    store.commit { $0.rows[id: 2]?.title = "two" }
    XCTAssertFalse(beforeRemove.isSet)
    store.commit { $0.rows.remove(id: 2) }
    XCTAssertTrue(beforeRemove.isSet)
  }

  func testKeyPathReadOutsideAnObserverReturnsTheValue() {
    let store = Store<RowList, Never>(initialState: RowList())
    XCTAssertEqual(store.state[\.rows[id: 4]]?.title, "Row 4")
    XCTAssertEqual(Array(store.state[\.rows.ids]), Array(0..<10))
    XCTAssertNil(store.state[\.rows[id: 99]])
  }

  func testObservationFromManyThreads() {
    let store = Store<Counter, Never>(initialState: Counter())
    let invalidations = Atomic<Int>(0)
    concurrently(threads: 4) { thread in
      for _ in 0..<50 {
        if thread == 0 {
          store.commit { $0.count += 1 }
        } else {
          withObservationTracking {
            _ = store.state.count
          } onChange: {
            invalidations.add(1, ordering: .relaxed)
          }
        }
      }
    }
    XCTAssertEqual(store.state.count, 50)
    store.commit { $0.count += 1 }  // readers armed after the last concurrent commit
    XCTAssertGreaterThan(invalidations.load(ordering: .relaxed), 0)
  }
}

extension Atomic where Value == Bool {
  /// A shareable boolean flag.
  final class Reference: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
  }
}

struct ObservedRow: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
}

struct RowList: Equatable, Sendable {
  var rows = IdentifiedArrayOf<ObservedRow>(uniqueElements: (0..<10).map { ObservedRow(id: $0, title: "Row \($0)") })
  var filter = ""
}
