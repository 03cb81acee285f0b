import VergeCollections
import XCTest

/// Elements that hold references are released when no version of the
/// array holds them any more: when a removal or the array goes at once; an
/// element replaced by a write held against an older version once that
/// version has gone and the current one has settled the branches on the
/// path (their lenders keep the old path until then).
final class IdentifiedArrayLifetimeTests: XCTestCase {
  func testElementsAreReleasedWhenTheLastVersionHoldingThemGoes() {
    var weak: [WeakPayload] = []
    do {
      var array = IdentifiedArray(uniqueElements: (0..<200).map { Holder(id: $0, payload: Payload($0)) })
      weak = array.map { WeakPayload($0.payload) }
      var held: IdentifiedArray<Int, Holder>? = array
      // A held write copies the path to the element; the old element stays
      // alive in the held copy only.
      array[id: 150]?.payload = Payload(-150)
      XCTAssertNotNil(weak[150].value)
      XCTAssertEqual(held?[id: 150]?.payload.number, 150)
      held = nil
      // The write's copy of the root borrows the older root's children and
      // keeps the older root alive as its lender, with the old leaf: the
      // replaced element lives on until the current version settles the
      // root (any structural change on its path does) or goes.
      XCTAssertNotNil(weak[149].value, "elements shared with the current version stay")
      // A removal in a uniquely held array releases at once.
      array.remove(id: 7)
      XCTAssertNil(weak[7].value)
      XCTAssertNil(weak[150].value, "the replaced element is released once the root settles")
      XCTAssertEqual(array.count, 199)
    }
    XCTAssertTrue(weak.allSatisfy { $0.value == nil }, "every element is released with the array")
  }

  func testOverAlignedElementsAreReleasedToo() {
    var weak: [WeakPayload] = []
    do {
      let array = IdentifiedArray(uniqueElements: (0..<70).map { Wide(id: $0, payload: Payload($0)) })
      weak = array.map { WeakPayload($0.payload) }
      XCTAssertEqual(array[id: 69]?.lanes, SIMD4(69, 0, 0, 1))
    }
    XCTAssertTrue(weak.allSatisfy { $0.value == nil })
  }
}

private final class Payload: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

private struct WeakPayload {
  weak var value: Payload?
  init(_ value: Payload) { self.value = value }
}

private struct Holder: Identifiable, Sendable {
  let id: Int
  var payload: Payload
}

/// An element aligned to 16 bytes, past the labels' word alignment.
private struct Wide: Identifiable, Sendable {
  let id: Int
  var payload: Payload
  var lanes: SIMD4<Float>

  init(id: Int, payload: Payload) {
    self.id = id
    self.payload = payload
    self.lanes = SIMD4(Float(id), 0, 0, 1)
  }
}
