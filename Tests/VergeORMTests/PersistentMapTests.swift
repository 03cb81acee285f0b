@testable import VergeORM
import VergeTestSupport
import XCTest

final class PersistentMapTests: XCTestCase {
  func testMatchesDictionaryUnderRandomOperations() {
    var rng = SplitMix64(seed: 7)
    var map = PersistentMap<Int, Int>()
    var reference: [Int: Int] = [:]
    var snapshots: [(PersistentMap<Int, Int>, [Int: Int])] = []
    for step in 0..<20_000 {
      let key = Int.random(in: 0..<2_000, using: &rng)
      if Bool.random(using: &rng) {
        XCTAssertEqual(map.updateValue(step, forKey: key), reference.updateValue(step, forKey: key))
      } else {
        XCTAssertEqual(map.removeValue(forKey: key), reference.removeValue(forKey: key))
      }
      XCTAssertEqual(map.count, reference.count)
      if step % 2_000 == 0 { snapshots.append((map, reference)) }
    }
    XCTAssertEqual(map.invariantViolations(), [])
    XCTAssertEqual(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }), reference)
    // Earlier copies were not changed by later writes.
    for (snapshot, expected) in snapshots {
      XCTAssertEqual(Dictionary(uniqueKeysWithValues: snapshot.map { ($0.key, $0.value) }), expected)
      XCTAssertEqual(snapshot.invariantViolations(), [])
    }
  }

  func testCollisionsAndCanonicalShape() {
    var map = PersistentMap<CollidingKey, Int>()
    for value in 0..<50 { map.updateValue(value, forKey: CollidingKey(value: value)) }
    XCTAssertEqual(map.invariantViolations(), [])
    for value in 0..<50 { XCTAssertEqual(map[CollidingKey(value: value)], value) }
    var other = PersistentMap<CollidingKey, Int>()
    for value in (0..<50).reversed() { other.updateValue(value, forKey: CollidingKey(value: value)) }
    XCTAssertTrue(map.contentEquals(other))
    for value in 0..<49 { map.removeValue(forKey: CollidingKey(value: value)) }
    XCTAssertEqual(map.invariantViolations(), [])
    XCTAssertEqual(map.count, 1)
    XCTAssertFalse(map.contentEquals(other))
  }

  func testEqualityFollowsContentNotHistory() {
    var a = PersistentMap<Int, String>()
    var b = PersistentMap<Int, String>()
    for i in 0..<500 { a.updateValue("\(i)", forKey: i) }
    for i in (0..<600).reversed() { b.updateValue("\(i)", forKey: i) }
    for i in 500..<600 { b.removeValue(forKey: i) }
    XCTAssertTrue(a.contentEquals(b))
    XCTAssertEqual(b.invariantViolations(), [])
    let copy = a
    a.updateValue("changed", forKey: 3)
    XCTAssertFalse(a.contentEquals(copy))
    XCTAssertEqual(copy[3], "3")
  }
}
