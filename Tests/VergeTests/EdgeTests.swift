import Verge
import XCTest

final class EdgeTests: XCTestCase {
  /// Not Equatable, as a decoded image or a closure-holding value would be.
  struct Picture: Sendable {
    var width: Int
  }

  struct State: Equatable {
    @Edge var picture = Picture(width: 1)
    var title = ""
  }

  func testAStateHoldingANonEquatableValueIsEquatable() {
    let a = State()
    var b = a
    XCTAssertEqual(a, b, "a copy with no write in between")
    b.picture = Picture(width: 1)
    XCTAssertNotEqual(a, b, "a write counts as a change even with an equal value")
    XCTAssertEqual(b.$picture.width, 1, "member lookup reads the value")
    XCTAssertGreaterThan(b.$picture.version, a.$picture.version)
  }

  func testIndependentEdgesWithTheSameValueDiffer() {
    XCTAssertNotEqual(State(), State(), "each edge has its own stamp")
  }

  func testIfChangedOnAnEdgeRunsOnlyAfterAWrite() {
    let store = Store<State, Never>(initialState: State())
    let widths = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { changes in
      changes.ifChanged(\.$picture) { edge in widths.append(edge.width) }
    }
    store.commit { $0.title = "unrelated" }
    store.commit { $0.picture.width = 5 }
    store.commit { $0.picture = Picture(width: 5) }
    XCTAssertEqual(widths.values, [5, 5])
    withExtendedLifetime(subscription) {}
  }

  func testADerivedSelectionOfAnEdgePublishesOnWrites() {
    let store = Store<State, Never>(initialState: State())
    let derived = store.derived(.select(\.$picture))
    let before = derived.version
    store.commit { $0.title = "unrelated" }
    XCTAssertEqual(derived.version, before)
    store.commit { $0.picture.width = 2 }
    XCTAssertEqual(derived.value.width, 2)
    XCTAssertGreaterThan(derived.version, before)
  }
}
