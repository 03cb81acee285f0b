import VergeCollections
import XCTest

/// Elements that hold references are released when no version of the
/// array holds them any more: at once when a held copy goes (in an array
/// this small, whose root of fewer than 16 children a held write copies
/// whole), when a removal takes them out, when the array goes. (A larger
/// array's branch copied for a held write keeps the older branch for a
/// while: see `IdentifiedArrayBorrowingTests`.)
final class IdentifiedArrayLifetimeTests: XCTestCase {
  func testElementsAreReleasedWhenTheLastVersionHoldingThemGoes() {
    var weak: [WeakTracked] = []
    do {
      var array = IdentifiedArray(uniqueElements: (0..<200).map { TrackedRow(id: $0, payload: Tracked($0)) })
      weak = array.map { WeakTracked($0.payload) }
      var held: IdentifiedArray<Int, TrackedRow>? = array
      // A held write copies the path to the element; the old element stays
      // alive in the held copy only.
      array[id: 150]?.payload = Tracked(-150)
      XCTAssertNotNil(weak[150].value)
      XCTAssertEqual(held?[id: 150]?.payload.number, 150)
      held = nil
      XCTAssertNil(weak[150].value, "the replaced element is released with the older version")
      XCTAssertNotNil(weak[149].value, "elements shared with the current version stay")
      // A removal in a uniquely held array releases at once.
      array.remove(id: 7)
      XCTAssertNil(weak[7].value)
      XCTAssertEqual(array.count, 199)
    }
    XCTAssertTrue(weak.allSatisfy { $0.value == nil }, "every element is released with the array")
  }

  func testOverAlignedElementsAreReleasedToo() {
    var weak: [WeakTracked] = []
    do {
      let array = IdentifiedArray(uniqueElements: (0..<70).map { Wide(id: $0, payload: Tracked($0)) })
      weak = array.map { WeakTracked($0.payload) }
      XCTAssertEqual(array[id: 69]?.lanes, SIMD4(69, 0, 0, 1))
    }
    XCTAssertTrue(weak.allSatisfy { $0.value == nil })
  }
}




/// An element aligned to 16 bytes, past the labels' word alignment.
private struct Wide: Identifiable, Sendable {
  let id: Int
  var payload: Tracked
  var lanes: SIMD4<Float>

  init(id: Int, payload: Tracked) {
    self.id = id
    self.payload = payload
    self.lanes = SIMD4(Float(id), 0, 0, 1)
  }
}
