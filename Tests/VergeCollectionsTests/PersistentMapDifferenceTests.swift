@testable import VergeCollections
import VergeTestSupport
import XCTest

/// `keysRemoved(since:)`: the keys an earlier version held that a later one
/// lacks, compared with a set difference after random edits.
final class PersistentMapDifferenceTests: XCTestCase {
  private func check<Key: Hashable>(
    seed: UInt64, keys: (Int) -> Key, range: Int, file: StaticString = #filePath, line: UInt = #line
  ) {
    var rng = SplitMix64(seed: seed)
    var map = PersistentMap<Key, Int>()
    for raw in 0..<range where Bool.random(using: &rng) { map.updateValue(raw, forKey: keys(raw)) }
    for round in 0..<40 {
      let earlier = map
      var expected = Set(earlier.map(\.key))
      for _ in 0..<Int.random(in: 0...(round % 5 == 0 ? range : 8), using: &rng) {
        let key = keys(Int.random(in: 0..<range, using: &rng))
        if Bool.random(using: &rng) {
          map.updateValue(round, forKey: key)
        } else {
          map.removeValue(forKey: key)
        }
      }
      expected.subtract(map.map(\.key))
      let removed = map.keysRemoved(since: earlier)
      XCTAssertEqual(removed.count, Set(removed).count, "no key twice", file: file, line: line)
      XCTAssertEqual(Set(removed), expected, "round \(round)", file: file, line: line)
    }
  }

  func testMatchesSetDifference() {
    check(seed: 3, keys: { $0 }, range: 3_000)
  }

  func testMatchesSetDifferenceWithCollidingKeys() {
    check(seed: 4, keys: { CollidingKey(value: $0) }, range: 200)
  }

  func testSharedMapsHaveNothingRemoved() {
    var map = PersistentMap<Int, Int>()
    for key in 0..<1_000 { map.updateValue(key, forKey: key) }
    let copy = map
    XCTAssertEqual(map.keysRemoved(since: copy), [])
    map.updateValue(-1, forKey: 5)
    XCTAssertEqual(map.keysRemoved(since: copy), [], "a changed value removes no key")
    map.removeValue(forKey: 6)
    XCTAssertEqual(copy.keysRemoved(since: map), [], "nothing removed going forward from fewer keys")
    XCTAssertEqual(map.keysRemoved(since: copy), [6])
  }
}
