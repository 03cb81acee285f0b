import Foundation
@testable import VergeCollections
import VergeTestSupport
import XCTest

/// The public surface of `IdentifiedArray`, one behaviour per test.
final class IdentifiedArrayTests: XCTestCase {
  private func assertSound<ID, Element>(_ array: IdentifiedArray<ID, Element>, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(array.invariantViolations(), [], file: file, line: line)
  }

  func testInitAndLiteralKeepOrder() {
    let array: IdentifiedArrayOf<Row> = [Row(3, "c"), Row(1, "a"), Row(2, "b")]
    XCTAssertEqual(array.elements, [Row(3, "c"), Row(1, "a"), Row(2, "b")])
    XCTAssertEqual(Array(array.ids), [3, 1, 2])
    XCTAssertEqual(IdentifiedArrayOf<Row>(uniqueElements: [Row(1), Row(2)]).count, 2)
    let empty = IdentifiedArrayOf<Row>()
    XCTAssertTrue(empty.isEmpty)
    XCTAssertNil(empty[id: 1])
    assertSound(array)
    assertSound(empty)
  }

  func testKeyPathIdentifiedElements() {
    var tags = IdentifiedArray(uniqueElements: [Tag(name: "swift", uses: 1), Tag(name: "c", uses: 2)], id: \.name)
    XCTAssertEqual(tags[id: "c"]?.uses, 2)
    tags[id: "swift"]?.uses += 10
    XCTAssertEqual(tags[id: "swift"]?.uses, 11)
    XCTAssertEqual(tags.append(Tag(name: "c", uses: 99)).inserted, false)
    XCTAssertEqual(Array(tags.ids), ["swift", "c"])
    assertSound(tags)
  }

  func testSubscriptByIDReadsWritesAppendsAndRemoves() {
    var array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    XCTAssertEqual(array[id: 2], Row(2, "b"))
    XCTAssertNil(array[id: 9])
    array[id: 2]?.value = "B"
    XCTAssertEqual(array[id: 2]?.value, "B")
    array[id: 3] = Row(3, "c")
    XCTAssertEqual(array.elements, [Row(1, "a"), Row(2, "B"), Row(3, "c")])
    array[id: 1] = nil
    XCTAssertEqual(array.elements, [Row(2, "B"), Row(3, "c")])
    array[id: 42] = nil
    XCTAssertEqual(array.count, 2)
    assertSound(array)
  }

  func testInoutAccessByIDWritesBackAppendsAndRemoves() {
    // An `inout` access goes through the accessor that yields, not the setter.
    func assign(_ slot: inout Row?, _ value: Row?) { slot = value }
    var array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    assign(&array[id: 3], Row(3, "c"))
    XCTAssertEqual(array.elements, [Row(1, "a"), Row(2, "b"), Row(3, "c")])
    assign(&array[id: 1], nil)
    XCTAssertEqual(array.elements, [Row(2, "b"), Row(3, "c")])
    assign(&array[id: 9], nil)
    array[id: 9]?.value = "missing"
    XCTAssertEqual(array.elements, [Row(2, "b"), Row(3, "c")])
    let held = array
    array[id: 3]?.value = "C"
    assign(&array[id: 2], Row(2, "B"))
    XCTAssertEqual(array.elements, [Row(2, "B"), Row(3, "C")])
    XCTAssertEqual(held.elements, [Row(2, "b"), Row(3, "c")])
    assertSound(array)
    assertSound(held)
  }

  func testAnErrorThrownInsideAnAccessByIDWritesNothingAndKeepsNoCopy() {
    struct Stop: Error {}
    final class Token {}
    struct Held: Identifiable {
      let id: Int
      var token: Token?
      var count = 0
    }
    func change(_ slot: inout Held?) throws {
      slot?.count = 5
      throw Stop()
    }
    weak var watched: Token?
    var array = IdentifiedArrayOf<Held>()
    do {
      let token = Token()
      watched = token
      array.append(Held(id: 1, token: token))
      array.append(Held(id: 2, token: nil))
    }
    XCTAssertThrowsError(try change(&array[id: 1]))
    XCTAssertEqual(array[id: 1]?.count, 0, "the write was abandoned")
    array.remove(id: 1)
    XCTAssertNil(watched, "no copy of the element outlives the abandoned write")
  }

  func testIndexAndIDsLookups() {
    let array: IdentifiedArrayOf<Row> = [Row(5), Row(7), Row(9)]
    XCTAssertEqual(array.index(id: 9), 2)
    XCTAssertNil(array.index(id: 6))
    XCTAssertTrue(array.ids.contains(7))
    XCTAssertFalse(array.ids.contains(8))
    XCTAssertEqual(array.ids.firstIndex(of: 7), 1)
    XCTAssertEqual(array.ids[2], 9)
  }

  func testAppendAndInsertReportDuplicates() {
    var array: IdentifiedArrayOf<Row> = [Row(1, "a")]
    XCTAssertTrue(array.append(Row(2, "b")) == (true, 1))
    XCTAssertTrue(array.append(Row(1, "z")) == (false, 0))
    XCTAssertEqual(array[id: 1]?.value, "a", "a refused append leaves the element alone")
    XCTAssertTrue(array.insert(Row(0, "zero"), at: 0) == (true, 0))
    XCTAssertTrue(array.insert(Row(2, "x"), at: 0) == (false, 2))
    array.append(contentsOf: [Row(3), Row(1), Row(4), Row(3)])
    XCTAssertEqual(Array(array.ids), [0, 1, 2, 3, 4])
    assertSound(array)
  }

  func testUpdateOrAppendAndUpdateOrInsert() {
    var array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    XCTAssertEqual(array.updateOrAppend(Row(2, "B")), Row(2, "b"))
    XCTAssertNil(array.updateOrAppend(Row(3, "c")))
    XCTAssertEqual(array.elements, [Row(1, "a"), Row(2, "B"), Row(3, "c")])
    let replaced = array.updateOrInsert(Row(3, "C"), at: 0)
    XCTAssertEqual(replaced.originalMember, Row(3, "c"))
    XCTAssertEqual(replaced.index, 2, "an existing element stays where it is")
    let inserted = array.updateOrInsert(Row(0, "zero"), at: 0)
    XCTAssertNil(inserted.originalMember)
    XCTAssertEqual(inserted.index, 0)
    XCTAssertEqual(Array(array.ids), [0, 1, 2, 3])
    assertSound(array)
  }

  func testRemovals() {
    var array = IdentifiedArrayOf<Row>(uniqueElements: (0..<10).map { Row($0) })
    XCTAssertEqual(array.remove(id: 3), Row(3))
    XCTAssertNil(array.remove(id: 3))
    XCTAssertEqual(array.remove(at: 0), Row(0))
    array.removeAll { $0.id.isMultiple(of: 2) }
    XCTAssertEqual(Array(array.ids), [1, 5, 7, 9])
    array.remove(atOffsets: [0, 2])
    XCTAssertEqual(Array(array.ids), [5, 9])
    array.remove(atOffsets: [])
    XCTAssertEqual(Array(array.ids), [5, 9])
    XCTAssertNil(array[id: 4])
    assertSound(array)
    array.removeAll()
    XCTAssertTrue(array.isEmpty)
    XCTAssertNil(array[id: 5])
    assertSound(array)
  }

  func testMoveMatchesArrayMove() {
    let source: [Row] = (0..<8).map { Row($0) }
    for (offsets, destination) in [([1, 2], 6), ([5], 0), ([0, 7], 4), ([3], 4), ([0, 1, 2, 3, 4, 5, 6, 7], 8)] as [([Int], Int)] {
      var expected = source
      let indexSet = IndexSet(offsets)
      let moved = indexSet.map { expected[$0] }
      for index in indexSet.reversed() { expected.remove(at: index) }
      expected.insert(contentsOf: moved, at: destination - indexSet.count(in: 0..<destination))
      var array = IdentifiedArrayOf<Row>(uniqueElements: source)
      array.move(fromOffsets: indexSet, toOffset: destination)
      XCTAssertEqual(array.elements, expected, "\(offsets) to \(destination)")
      assertSound(array)
    }
  }

  func testSwapSortReverseFilter() {
    var array: IdentifiedArrayOf<Row> = [Row(3, "c"), Row(1, "a"), Row(2, "b")]
    array.swapAt(0, 2)
    XCTAssertEqual(Array(array.ids), [2, 1, 3])
    XCTAssertEqual(array.index(id: 3), 2)
    assertSound(array)
    array.sort()
    XCTAssertEqual(Array(array.ids), [1, 2, 3])
    array.sort { $0.value > $1.value }
    XCTAssertEqual(Array(array.ids), [3, 2, 1])
    array.reverse()
    XCTAssertEqual(Array(array.ids), [1, 2, 3])
    let odd: IdentifiedArrayOf<Row> = array.filter { $0.id % 2 == 1 }
    XCTAssertEqual(Array(odd.ids), [1, 3])
    XCTAssertEqual(odd.index(id: 3), 1)
    assertSound(array)
    assertSound(odd)
    // Generic MutableCollection algorithms go through swapAt and keep the ids right.
    var generator = SplitMix64(seed: 42)
    array.shuffle(using: &generator)
    array.reverse()
    _ = array.partition { $0.id > 1 }
    XCTAssertEqual(Set(array.ids), [1, 2, 3])
    assertSound(array)
  }

  func testMutableCollectionWriteKeepsID() {
    var array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    array[1].value = "B"
    array[0] = Row(1, "A")
    XCTAssertEqual(array.elements, [Row(1, "A"), Row(2, "B")])
    XCTAssertEqual(array[id: 2]?.value, "B")
  }

  func testEquatableAndHashable() {
    let a: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    var b = IdentifiedArrayOf<Row>()
    b.append(Row(2, "b"))
    b.insert(Row(1, "a"), at: 0)
    XCTAssertEqual(a, b, "equal contents built differently")
    XCTAssertEqual(a.hashValue, b.hashValue)
    XCTAssertEqual(Set([a, b]).count, 1)
    var c = a
    c[id: 2]?.value = "B"
    XCTAssertNotEqual(a, c)
    XCTAssertNotEqual(a, [Row(2, "b"), Row(1, "a")], "order matters")
    XCTAssertNotEqual(a, [Row(1, "a")])
    XCTAssertEqual(a.ids, b.ids)
    XCTAssertNotEqual(a.ids, c.filter { $0.id == 1 }.ids)
  }

  func testCodableRoundTripIsAPlainArray() throws {
    let array: IdentifiedArrayOf<Row> = [Row(2, "b"), Row(1, "a")]
    let data = try JSONEncoder().encode(array)
    let plain = try JSONDecoder().decode([Row].self, from: data)
    XCTAssertEqual(plain, [Row(2, "b"), Row(1, "a")])
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Row>.self, from: data)
    XCTAssertEqual(decoded, array)
    XCTAssertEqual(decoded.index(id: 1), 1)
    assertSound(decoded)
  }

  func testDecodingDuplicateIDsThrowsNamingTheID() {
    let json = Data(#"[{"id": 1, "value": "a"}, {"id": 7, "value": "b"}, {"id": 7, "value": "c"}]"#.utf8)
    XCTAssertThrowsError(try JSONDecoder().decode(IdentifiedArrayOf<Row>.self, from: json)) { error in
      guard case DecodingError.dataCorrupted(let context) = error else {
        return XCTFail("expected dataCorrupted, got \(error)")
      }
      XCTAssertEqual(context.debugDescription, "IdentifiedArray: duplicate id 7")
    }
  }

  func testDescriptions() {
    let array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    XCTAssertEqual(array.description, "[1:a, 2:b]")
    XCTAssertTrue(array.debugDescription.hasPrefix("IdentifiedArray<Int, Row>(["), array.debugDescription)
    let mirror = Mirror(reflecting: array)
    XCTAssertEqual(mirror.displayStyle, .collection)
    XCTAssertEqual(mirror.children.map { $0.value as? Row }, [Row(1, "a"), Row(2, "b")])
  }

  func testSendableWhenElementsAre() async {
    let array: IdentifiedArrayOf<Row> = [Row(1, "a")]
    let count = await Task.detached { array.count }.value
    XCTAssertEqual(count, 1)
  }

  func testIterationAndIndexingAcrossManyLeaves() {
    let rows = (0..<5_000).map { Row($0, "v\($0)") }
    let array = IdentifiedArrayOf<Row>(uniqueElements: rows)
    XCTAssertEqual(Array(array), rows)
    XCTAssertEqual(array.elements, rows)
    for index in Swift.stride(from: 0, to: 5_000, by: 97) {
      XCTAssertEqual(array[index], rows[index])
      XCTAssertEqual(array.index(id: index), index)
    }
    XCTAssertEqual(array.reversed().first, rows.last)
    XCTAssertEqual(Array(array[10..<13]), Array(rows[10..<13]))
    assertSound(array)
  }

  func testHeldCopyIsUnchangedByWrites() {
    var array = IdentifiedArrayOf<Row>(uniqueElements: (0..<1_000).map { Row($0) })
    let copy = array
    array[id: 500]?.value = "changed"
    array.remove(id: 3)
    array.insert(Row(-1), at: 0)
    array[10] = Row(array[10].id, "ten")
    XCTAssertEqual(copy.elements, (0..<1_000).map { Row($0) })
    XCTAssertEqual(copy[id: 500]?.value, "")
    XCTAssertEqual(array[id: 500]?.value, "changed")
    assertSound(copy)
    assertSound(array)
  }

  func testRepeatedInsertionAtOnePlaceRelabels() {
    // Each insertion between the same two neighbours halves their label gap;
    // thousands of them force relabelling, first of a leaf, then higher.
    var array: IdentifiedArrayOf<Row> = [Row(0), Row(1)]
    var expected = [Row(0), Row(1)]
    for id in 2..<3_000 {
      array.insert(Row(id), at: 1)
      expected.insert(Row(id), at: 1)
    }
    XCTAssertEqual(array.elements, expected)
    for index in Swift.stride(from: 0, to: expected.count, by: 37) {
      XCTAssertEqual(array.index(id: expected[index].id), index)
    }
    assertSound(array)
    // Prepending and appending far past the initial label range.
    for id in 3_000..<3_200 {
      array.insert(Row(id), at: 0)
      array.append(Row(id + 10_000))
    }
    XCTAssertEqual(array.count, 3_400)
    XCTAssertEqual(array.first?.id, 3_199)
    XCTAssertEqual(array.last?.id, 13_199)
    assertSound(array)
  }
}
