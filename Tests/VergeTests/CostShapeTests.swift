import Observation
import Verge
import VergeTestSupport
import XCTest

/// The cost shape DESIGN.md promises, checked deterministically by counting
/// copies of a copy-on-write buffer held in the state.
final class CostShapeTests: XCTestCase {
  struct Big: Equatable, Sendable {
    var buffer = CopyCountingBuffer(count: 100_000)
    var unrelated = 0
  }

  private func copies(during body: () -> Void) -> Int {
    let before = CopyCountingBuffer.copies.load(ordering: .relaxed)
    body()
    return CopyCountingBuffer.copies.load(ordering: .relaxed) - before
  }

  func testCommitWithoutSubscribersMutatesInPlace() {
    let store = Store<Big, Never>(initialState: Big())
    let copied = copies {
      for i in 0..<100 { store.commit { $0.buffer[i] = i } }
    }
    XCTAssertEqual(copied, 0)
    XCTAssertEqual(store.state.current.buffer[99], 99)
  }

  func testCommitWithOnlyDerivedAndObservationReadersCopiesNothing() {
    let store = Store<Big, Never>(initialState: Big())
    let derived = store.derived(.select(\.unrelated))
    let sum = store.derived(.map { $0.buffer[0] })
    withObservationTracking {
      _ = store.state.unrelated  // arms an observation check
    } onChange: {}
    let copied = copies {
      for i in 0..<100 { store.commit { $0.buffer[i] = i + 1 } }
    }
    XCTAssertEqual(copied, 0)
    XCTAssertEqual(sum.value, 1)
    withExtendedLifetime(derived) {}
  }

  func testWholeStateSubscriberCostsOneCopyPerCommit() {
    let store = Store<Big, Never>(initialState: Big())
    let subscription = store.sinkState { _ in }
    let copied = copies {
      for i in 0..<10 { store.commit { $0.buffer[i] = i + 1 } }
    }
    XCTAssertEqual(copied, 10)
    subscription.cancel()
    let afterCancel = copies {
      for i in 0..<10 { store.commit { $0.buffer[i] = i + 2 } }
    }
    XCTAssertEqual(afterCancel, 0)
  }

  func testThrowingClosureWorksOnACopy() {
    let store = Store<Big, Never>(initialState: Big())
    let copied = copies {
      try? store.commit { (state) throws(ValidationError) in state.buffer[0] = 1 }
    }
    XCTAssertEqual(copied, 1)
    XCTAssertEqual(store.state.current.buffer[0], 1)
  }
}
