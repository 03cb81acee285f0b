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
