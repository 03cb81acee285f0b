@testable import VergeCollections
import VergeTestSupport
import XCTest

/// Building a map bottom-up gives the trie that inserting the keys one by
/// one gives, and reports the first repeated key.
final class PersistentMapBuildingTests: XCTestCase {
  private func check<Key: Hashable>(_ keys: [Key], file: StaticString = #filePath, line: UInt = #line) {
    let (built, duplicate) = PersistentMap<Key, Int>.building(keys: ContiguousArray(keys)) { $0 * 10 }
    XCTAssertNil(duplicate, file: file, line: line)
    var inserted = PersistentMap<Key, Int>()
    for (index, key) in keys.enumerated() { inserted.updateValue(index * 10, forKey: key) }
    XCTAssertEqual(built.count, keys.count, file: file, line: line)
    // Node by node: the same shape, the same entries, the same buckets.
    XCTAssertTrue(built.contentEquals(inserted), file: file, line: line)
    for (index, key) in keys.enumerated() { XCTAssertEqual(built[key], index * 10, file: file, line: line) }
  }

  func testMatchesInsertionOneByOne() {
    var rng = SplitMix64(seed: 21)
    for count in [0, 1, 2, 15, 16, 17, 300, 20_000] {
      var keys = Set<Int>()
      while keys.count < count { keys.insert(Int(truncatingIfNeeded: rng.next())) }
      check(Array(keys))
      check(Array(0..<count))
    }
  }

  func testMatchesInsertionWithCollidingKeys() {
    check((0..<200).map { CollidingKey(value: $0) })
    check((0..<200).reversed().map { CollidingKey(value: $0) })
  }

  func testReportsTheFirstKeyThatRepeatsAnEarlierOne() {
    // Positions 5 and 9 repeat earlier keys: 5 is reported, and no map.
    var keys = Array(0..<20)
    keys[5] = 1
    keys[9] = 2
    let (map, duplicate) = PersistentMap<Int, Int>.building(keys: ContiguousArray(keys)) { $0 }
    XCTAssertEqual(duplicate, 5)
    XCTAssertEqual(map.count, 0)

    var colliding = (0..<50).map { CollidingKey(value: $0) }
    colliding[40] = CollidingKey(value: 7)
    colliding[30] = CollidingKey(value: 3)
    XCTAssertEqual(PersistentMap<CollidingKey, Int>.building(keys: ContiguousArray(colliding)) { $0 }.duplicate, 30)
  }

  func testAnIdentifiedArrayBuiltFromASequenceFindsEveryElementByID() {
    let rows = (0..<5_000).map { Row($0 * 7, "v\($0)") }
    let array = IdentifiedArrayOf<Row>(uniqueElements: rows)
    XCTAssertEqual(array.elements, rows)
    for (index, row) in rows.enumerated() {
      XCTAssertEqual(array[id: row.id], row)
      XCTAssertEqual(array.index(id: row.id), index)
    }
    XCTAssertNil(array[id: 1])
    // Writes and insertions after a bulk build keep working.
    var copy = array
    copy[id: 7]?.value = "x"
    copy.insert(Row(1, "new"), at: 2_500)
    XCTAssertEqual(copy.index(id: 1), 2_500)
    XCTAssertEqual(copy[id: 7]?.value, "x")
    XCTAssertEqual(array[id: 7]?.value, "v1")
  }
}
