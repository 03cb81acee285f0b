import Foundation
@testable import VergeCollections
import VergeTestSupport
import XCTest

/// The surface The Composable Architecture's `IdentifiedArray` has beyond
/// the core one: `RangeReplaceableCollection`, removals at the ends, the
/// uniquing initializers and `update(_:at:)`.
final class IdentifiedArrayRangeReplaceableTests: XCTestCase {
  private func assertSound<ID, Element>(_ array: IdentifiedArray<ID, Element>, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(array.invariantViolations(), [], file: file, line: line)
  }

  private func rows(_ ids: ClosedRange<Int>) -> IdentifiedArrayOf<Row> {
    IdentifiedArrayOf(uniqueElements: ids.map { Row($0, "\($0)") })
  }

  /// Generic code over `RangeReplaceableCollection` (here: the standard
  /// library's own algorithms) works on the array.
  func testGenericRangeReplaceableCodeWorks() {
    func appendingTwice<C: RangeReplaceableCollection>(_ collection: C, _ element: C.Element) -> C {
      var collection = collection
      collection.append(element)
      collection.append(element)
      return collection
    }
    // Through the generic path, an element with a held id replaces it.
    let array = appendingTwice(rows(1...2), Row(3, "new"))
    XCTAssertEqual(array.elements, [Row(1, "1"), Row(2, "2"), Row(3, "new")])
    let replaced = appendingTwice(rows(1...2), Row(1, "again"))
    XCTAssertEqual(replaced.elements, [Row(1, "again"), Row(2, "2")])
    assertSound(array)
    assertSound(replaced)

    let joined = rows(1...2) + [Row(3, "3"), Row(4, "4")]
    XCTAssertEqual(joined.map(\.id), [1, 2, 3, 4])
    var summed = rows(1...2)
    summed += [Row(2, "ignored"), Row(5, "5")]
    // `+=` is the array's own append(contentsOf:): a held id is kept as is.
    XCTAssertEqual(summed.elements, [Row(1, "1"), Row(2, "2"), Row(5, "5")])
    let fromSlice = IdentifiedArrayOf<Row>(rows(1...5)[1..<3])
    XCTAssertEqual(fromSlice.map(\.id), [2, 3])
    assertSound(fromSlice)
  }

  func testInsertContentsOfPlacesNewIDsAndUpdatesHeldOnesInPlace() {
    var array = rows(1...3)
    array.insert(contentsOf: [Row(10, "a"), Row(2, "two"), Row(11, "b")], at: 1)
    XCTAssertEqual(array.elements, [Row(1, "1"), Row(10, "a"), Row(11, "b"), Row(2, "two"), Row(3, "3")])
    assertSound(array)
  }

  func testReplaceSubrangeRemovesThenInserts() {
    var array = rows(1...5)
    let held = array
    array.replaceSubrange(1..<3, with: [Row(2, "back"), Row(20, "x"), Row(20, "dup"), Row(5, "five")])
    // 2 and 3 go; 2 comes back at 1; 20 once (the second updates the
    // first); 5 is held outside the range, so it is updated where it is.
    XCTAssertEqual(array.elements, [Row(1, "1"), Row(2, "back"), Row(20, "dup"), Row(4, "4"), Row(5, "five")])
    XCTAssertNil(array[id: 3])
    XCTAssertEqual(held, rows(1...5), "a held copy is unchanged")
    assertSound(array)
    assertSound(held)

    var emptied = rows(1...3)
    emptied.replaceSubrange(0..<3, with: [Row(9, "9")])
    XCTAssertEqual(emptied.elements, [Row(9, "9")])
    assertSound(emptied)
  }

  func testRemovalsAtTheEnds() {
    var array = rows(1...8)
    XCTAssertEqual(array.removeFirst(), Row(1, "1"))
    XCTAssertEqual(array.removeLast(), Row(8, "8"))
    XCTAssertEqual(array.popLast(), Row(7, "7"))
    array.removeFirst(2)
    XCTAssertEqual(array.map(\.id), [4, 5, 6])
    array.removeLast(2)
    XCTAssertEqual(array.map(\.id), [4])
    XCTAssertNil(array[id: 1])
    XCTAssertNil(array[id: 6])
    XCTAssertEqual(array.popLast(), Row(4, "4"))
    XCTAssertNil(array.popLast())
    assertSound(array)
  }

  func testRemoveSubrangeAndRemoveAllKeepingCapacity() {
    var array = rows(1...6)
    array.removeSubrange(1..<3)
    XCTAssertEqual(array.map(\.id), [1, 4, 5, 6])
    array.removeSubrange(2...)
    XCTAssertEqual(array.map(\.id), [1, 4])
    XCTAssertEqual(array.index(id: 4), 1)
    XCTAssertNil(array.index(id: 5))
    assertSound(array)
    array.removeAll(keepingCapacity: true)
    XCTAssertTrue(array.isEmpty)
    XCTAssertNil(array[id: 1])
  }

  func testUniquingInitializerKeepsThePositionOfTheFirst() {
    let fetched = [Row(1, "a"), Row(2, "b"), Row(1, "c"), Row(3, "d"), Row(2, "e")]
    let newest = IdentifiedArrayOf<Row>(fetched, uniquingIDsWith: { _, newer in newer })
    XCTAssertEqual(newest.elements, [Row(1, "c"), Row(2, "e"), Row(3, "d")])
    let merged = IdentifiedArrayOf<Row>(fetched, uniquingIDsWith: { Row($0.id, $0.value + $1.value) })
    XCTAssertEqual(merged.elements, [Row(1, "ac"), Row(2, "be"), Row(3, "d")])
    assertSound(newest)

    struct Refused: Error {}
    XCTAssertThrowsError(try IdentifiedArrayOf<Row>(fetched, uniquingIDsWith: { _, _ in throw Refused() })) {
      XCTAssertTrue($0 is Refused)
    }

    let tags = IdentifiedArray(
      [Tag(name: "a", uses: 1), Tag(name: "b", uses: 1), Tag(name: "a", uses: 2)], id: \Tag.name,
      uniquingIDsWith: { Tag(name: $0.name, uses: $0.uses + $1.uses) })
    XCTAssertEqual(tags.elements, [Tag(name: "a", uses: 3), Tag(name: "b", uses: 1)])
    var empty = IdentifiedArray<String, Tag>(id: \.name)
    XCTAssertTrue(empty.isEmpty)
    empty.append(Tag(name: "x", uses: 0))
    XCTAssertEqual(empty[id: "x"]?.uses, 0)
    assertSound(tags)
  }

  func testUncheckedUniqueElementsAndUpdateAtIndex() {
    var array = IdentifiedArrayOf<Row>(uncheckedUniqueElements: [Row(1, "a"), Row(2, "b")])
    XCTAssertEqual(array.update(Row(2, "B"), at: 1), Row(2, "b"))
    XCTAssertEqual(array.elements, [Row(1, "a"), Row(2, "B")])
    assertSound(array)
  }
}
