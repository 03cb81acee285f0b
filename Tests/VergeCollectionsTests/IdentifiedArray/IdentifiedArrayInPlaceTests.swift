@testable import VergeCollections
import VergeTestSupport
import XCTest

/// Writes to a part of an element happen in place where they can.
final class IdentifiedArrayInPlaceTests: XCTestCase {
  struct Holder: Identifiable, Equatable {
    let id: Int
    var buffer = CopyCountingBuffer(count: 4)
  }

  func testWriteThroughAnIndexDoesNotCopyThePart() {
    var array = IdentifiedArrayOf<Holder>(uniqueElements: (0..<100).map { Holder(id: $0) })
    let before = CopyCountingBuffer.copies.load(ordering: .relaxed)
    for index in 0..<100 { array[index].buffer[1] = index }
    XCTAssertEqual(CopyCountingBuffer.copies.load(ordering: .relaxed) - before, 0)
    XCTAssertEqual(array[id: 42]?.buffer[1], 42)
  }

  func testWriteThroughAnIndexUnderAHeldCopyCopiesOnlyThatPart() {
    var array = IdentifiedArrayOf<Holder>(uniqueElements: (0..<100).map { Holder(id: $0) })
    let held = array
    let before = CopyCountingBuffer.copies.load(ordering: .relaxed)
    array[7].buffer[1] = 70
    XCTAssertEqual(CopyCountingBuffer.copies.load(ordering: .relaxed) - before, 1, "the held copy keeps its own")
    XCTAssertEqual(held[7].buffer[1], 0)
    XCTAssertEqual(array[7].buffer[1], 70)
  }

  func testModifyByIDDoesNotCopyThePart() {
    var array = IdentifiedArrayOf<Holder>(uniqueElements: (0..<100).map { Holder(id: $0) })
    let before = CopyCountingBuffer.copies.load(ordering: .relaxed)
    _ = array.modify(id: 9) { $0.buffer[2] = 9 }
    XCTAssertEqual(CopyCountingBuffer.copies.load(ordering: .relaxed) - before, 0)
    XCTAssertEqual(array[id: 9]?.buffer[2], 9)
  }
}
