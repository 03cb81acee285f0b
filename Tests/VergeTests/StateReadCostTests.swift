import Observation
import Synchronization
@testable import Verge
import VergeTestSupport
import XCTest

/// A read through `store.state` outside any observer costs the read alone:
/// it makes later commits copy nothing, and it keeps nothing alive.
final class StateReadCostTests: XCTestCase {
  struct Big: Equatable, Sendable {
    var buffer = CopyCountingBuffer(count: 100_000)
    var unrelated = 0
  }

  /// A class instance held in state, whose lifetime tells whether the state was freed.
  final class Token: Equatable, Sendable {
    static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }
  }

  struct Holder: Equatable, Sendable {
    var token: Token
    var count = 0
  }

  private func copies(during body: () -> Void) -> Int {
    let before = CopyCountingBuffer.copies.load(ordering: .relaxed)
    body()
    return CopyCountingBuffer.copies.load(ordering: .relaxed) - before
  }

  // MARK: Copies

  func testPropertyReadOutsideAnObserverMakesNoCommitCopy() {
    let store = Store<Big, Never>(initialState: Big())
    let copied = copies {
      for i in 0..<200 {
        _ = store.state.buffer[0]
        store.commit { $0.buffer[i] = i + 1 }
      }
    }
    XCTAssertEqual(copied, 0, "a read outside any observer made later commits copy what was read")
    XCTAssertEqual(store.state.buffer[199], 200)
  }

  func testWholeStateReadOutsideAnObserverMakesNoCommitCopy() {
    let store = Store<Big, Never>(initialState: Big())
    let copied = copies {
      for i in 0..<200 {
        _ = store.state.current.unrelated
        store.commit { $0.buffer[i] = i + 1 }
      }
    }
    XCTAssertEqual(copied, 0)
  }

  func testReadOutsideAnObserverDoesNotFollowTheStore() {
    let store = Store<Big, Never>(initialState: Big())
    _ = store.state.unrelated
    _ = store.state.current
    XCTAssertEqual(store.core.valueSubscriberCount, 0, "a read outside any observer subscribed to the store")
  }

  func testReadInsideAnObserverStillKeepsOnlyWhatItRead() {
    let store = Store<Big, Never>(initialState: Big())
    withObservationTracking {
      _ = store.state.unrelated
    } onChange: {}
    let copied = copies {
      for i in 0..<100 { store.commit { $0.buffer[i] = i + 1 } }
    }
    XCTAssertEqual(copied, 0, "a reader of one Int made commits copy the buffer")
    XCTAssertEqual(store.core.valueSubscriberCount, 1, "the reader's check was dropped before what it read changed")
  }

  func testTrackedReadsAmongUntrackedOnesOnManyThreadsAreAllInvalidated() {
    let store = Store<Counter, Never>(initialState: Counter())
    let flags = Recorder<Atomic<Bool>.Reference>()
    concurrently(threads: 4) { thread in
      for _ in 0..<200 {
        if thread.isMultiple(of: 2) {
          _ = store.state.count
          _ = store.state.current
        } else {
          let flag = Atomic<Bool>.Reference()
          withObservationTracking {
            _ = store.state.count
          } onChange: {
            flag.set()
          }
          flags.append(flag)
        }
      }
    }
    store.commit { $0.count += 1 }
    XCTAssertEqual(flags.count, 400)
    XCTAssertTrue(flags.values.allSatisfy(\.isSet), "a tracked read was taken for an untracked one")
  }

  // MARK: Lifetimes

  func testStoreReleasedAfterAPropertyReadFreesItsState() {
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      let store = Store<Holder, Never>(initialState: Holder(token: token))
      _ = store.state.token
    }
    XCTAssertNil(weakToken, "a store released after a property read kept its state alive")
  }

  func testStoreReleasedAfterAWholeStateReadFreesItsState() {
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      let store = Store<Holder, Never>(initialState: Holder(token: token))
      _ = store.state.current
    }
    XCTAssertNil(weakToken, "a store released after a .current read kept its state alive")
  }

  func testStoreReleasedAfterAnObservedReadFreesItsState() {
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      let store = Store<Holder, Never>(initialState: Holder(token: token))
      withObservationTracking {
        _ = store.state.current
      } onChange: {}
    }
    XCTAssertNil(weakToken, "a store released while an observer watched it kept its state alive")
  }

  // MARK: Description

  func testSnapshotDescribesTheState() {
    let store = Store<Counter, Never>(initialState: Counter(count: 2, name: "a"))
    XCTAssertEqual(String(describing: store.state), String(describing: Counter(count: 2, name: "a")))
    XCTAssertEqual(String(reflecting: store.state), String(reflecting: Counter(count: 2, name: "a")))
    XCTAssertFalse(String(describing: store.state).contains("observation"))
    var dumped = ""
    dump(store.state, to: &dumped)
    var expected = ""
    dump(Counter(count: 2, name: "a"), to: &expected)
    // The header line is the debug description; the fields are the state's.
    XCTAssertEqual(dumped.split(separator: "\n").dropFirst(), expected.split(separator: "\n").dropFirst())
    XCTAssertFalse(dumped.contains("observation"))
  }

  func testDescribingTheSnapshotRegistersNothing() {
    let store = Store<Counter, Never>(initialState: Counter())
    withObservationTracking {
      _ = String(describing: store.state)
    } onChange: {}
    XCTAssertEqual(store.core.valueSubscriberCount, 0)
  }

  /// The probe that tells tracked reads from untracked ones works on this
  /// toolchain, so reads take the precise path rather than the fallback.
  func testTrackedReadsAreDetected() {
    XCTAssertTrue(observationAccessIsDetectable)
    XCTAssertTrue(probeSeesTracking())
    var insideAnotherTracking = false
    withObservationTracking {
      insideAnotherTracking = probeSeesTracking()
    } onChange: {}
    XCTAssertTrue(insideAnotherTracking, "a first read inside an observer would turn the precise path off")
  }
}
