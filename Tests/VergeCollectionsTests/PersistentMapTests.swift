@testable import VergeCollections
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

  func testIntegerKeysNeverShareAHashNorFormCollisionBuckets() {
    // A dense range, keys that differ only in their high bits, and the
    // extremes: the mix of `Int` keys is a bijection, so each has its own
    // hash and the trie stays within its 16 hash levels.
    let keys = Set(Array(0..<20_000) + (1..<2_000).map { $0 << 40 } + [Int.min, Int.max, -1])
    let hashes = Set(keys.map { PersistentMap<Int, Int>.hash($0) })
    XCTAssertEqual(hashes.count, keys.count)
    var map = PersistentMap<Int, Int>()
    for key in keys { map.updateValue(key, forKey: key) }
    XCTAssertEqual(map.invariantViolations(), [])
    func deepestShift(_ node: MapNode<Int, Int>, shift: UInt64) -> UInt64 {
      node.children.map { deepestShift($0, shift: shift + MapNode<Int, Int>.levelBits) }.max() ?? shift
    }
    XCTAssertLessThan(deepestShift(map.root, shift: 0), MapNode<Int, Int>.maxShift)
    for key in keys { XCTAssertEqual(map[key], key) }
    var unsigned = PersistentMap<UInt64, Int>()
    for key in 0..<1_000 as Range<UInt64> { unsigned.updateValue(Int(key), forKey: key << 50) }
    XCTAssertEqual(unsigned.invariantViolations(), [])
    XCTAssertEqual(unsigned[UInt64(999) << 50], 999)
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

  // MARK: Node layout: children first, then entries at their own alignment

  func testEntriesSmallerThanAWordMatchDictionary() {
    var rng = SplitMix64(seed: 11)
    var map = PersistentMap<UInt8, UInt8>()
    var reference: [UInt8: UInt8] = [:]
    for _ in 0..<5_000 {
      let key = UInt8.random(in: .min ... .max, using: &rng)
      if Int.random(in: 0..<3, using: &rng) > 0 {
        let value = UInt8.random(in: .min ... .max, using: &rng)
        XCTAssertEqual(map.updateValue(value, forKey: key), reference.updateValue(value, forKey: key))
      } else {
        XCTAssertEqual(map.removeValue(forKey: key), reference.removeValue(forKey: key))
      }
    }
    XCTAssertEqual(map.invariantViolations(), [])
    XCTAssertEqual(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }), reference)
  }

  func testOverAlignedValuesKeepTheirAlignment() {
    var map = PersistentMap<Int, SIMD4<Float>>()
    for key in 0..<3_000 { map.updateValue(SIMD4(repeating: Float(key)), forKey: key) }
    let copy = map
    for key in stride(from: 0, to: 3_000, by: 7) { map.updateValue(SIMD4(repeating: -1), forKey: key) }
    for key in stride(from: 1, to: 3_000, by: 5) { map.removeValue(forKey: key) }
    XCTAssertEqual(map.invariantViolations(), [])
    XCTAssertEqual(copy.invariantViolations(), [])
    for key in 0..<3_000 {
      XCTAssertEqual(copy[key], SIMD4(repeating: Float(key)))
      let expected: SIMD4<Float>? =
        key % 5 == 1 ? nil : key % 7 == 0 ? SIMD4(repeating: -1) : SIMD4(repeating: Float(key))
      XCTAssertEqual(map[key], expected)
    }
  }

  func testReferenceKeysAndValuesMatchDictionary() {
    var rng = SplitMix64(seed: 3)
    var map = PersistentMap<String, [Int]>()
    var reference: [String: [Int]] = [:]
    var snapshot = (map, reference)
    for step in 0..<6_000 {
      let key = "k\(Int.random(in: 0..<1_500, using: &rng))"
      if Int.random(in: 0..<3, using: &rng) > 0 {
        XCTAssertEqual(map.updateValue([step, step], forKey: key), reference.updateValue([step, step], forKey: key))
      } else {
        XCTAssertEqual(map.removeValue(forKey: key), reference.removeValue(forKey: key))
      }
      if step == 3_000 { snapshot = (map, reference) }
    }
    XCTAssertEqual(map.invariantViolations(), [])
    XCTAssertEqual(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }), reference)
    XCTAssertEqual(Dictionary(uniqueKeysWithValues: snapshot.0.map { ($0.key, $0.value) }), snapshot.1)
  }

  func testReleasingMapsReleasesEveryValueAndNode() {
    var values: [WeakTracked] = []
    var nodes: [WeakNode] = []
    do {
      var map = PersistentMap<Int, Tracked>()
      for key in 0..<2_000 {
        let value = Tracked(key)
        values.append(WeakTracked(value))
        map.updateValue(value, forKey: key)
      }
      var copy = map
      for key in stride(from: 0, to: 2_000, by: 3) {
        let value = Tracked(-key)
        values.append(WeakTracked(value))
        copy.updateValue(value, forKey: key)
      }
      for key in stride(from: 1, to: 2_000, by: 4) { copy.removeValue(forKey: key) }
      XCTAssertEqual(map[3]?.number, 3)
      XCTAssertEqual(copy[3]?.number, -3)
      for root in [map.root, copy.root] {
        nodes.append(WeakNode(root))
        nodes += root.children.map(WeakNode.init)
      }
    }
    XCTAssertEqual(values.filter { $0.value != nil }.count, 0)
    XCTAssertEqual(nodes.filter { $0.node != nil }.count, 0)
  }

  func testWritesThatMoveAUniqueNodesContentsKeepAndReleaseEveryValue() {
    var values: [WeakTracked] = []
    do {
      var map = PersistentMap<Int, Tracked>()
      for key in 0..<3_000 {
        let value = Tracked(key)
        values.append(WeakTracked(value))
        map.updateValue(value, forKey: key)
      }
      // Removing and re-adding turns children into entries and back in
      // uniquely referenced nodes, which move their contents.
      for key in stride(from: 0, to: 3_000, by: 2) { map.removeValue(forKey: key) }
      XCTAssertEqual(values.filter { $0.value != nil }.count, 1_500)
      for key in stride(from: 0, to: 3_000, by: 2) {
        let value = Tracked(-key)
        values.append(WeakTracked(value))
        map.updateValue(value, forKey: key)
      }
      XCTAssertEqual(map.invariantViolations(), [])
      for key in 0..<3_000 { XCTAssertEqual(map[key]?.number, key % 2 == 0 ? -key : key) }
    }
    XCTAssertEqual(values.filter { $0.value != nil }.count, 0)
  }

  func testRemovingAndReinsertingInAUniqueNodeReusesItsStorage() {
    var removed: WeakTracked?
    do {
      var map = PersistentMap<Int, Tracked>()
      // Two second land in two slots of the root, which holds them as entries.
      let second = (1..<64).first { PersistentMap<Int, Int>.hash($0) & 15 != PersistentMap<Int, Int>.hash(0) & 15 }!
      map.updateValue(Tracked(0), forKey: 0)
      map.updateValue(Tracked(second), forKey: second)
      XCTAssertEqual(map.root.childCount, 0)
      let root = ObjectIdentifier(map.root)
      do {
        let value = map.removeValue(forKey: second)
        removed = value.map(WeakTracked.init)
      }
      // Removed in place: the root is the same node, and its value is gone.
      XCTAssertEqual(ObjectIdentifier(map.root), root)
      XCTAssertNil(removed?.value)
      XCTAssertEqual(map.root.fields.spareWords, 2)
      // Re-inserted in place, into the room the removal left.
      map.updateValue(Tracked(-second), forKey: second)
      XCTAssertEqual(ObjectIdentifier(map.root), root)
      XCTAssertEqual(map.root.fields.spareWords, 0)
      XCTAssertEqual(map[second]?.number, -second)
      XCTAssertEqual(map.invariantViolations(), [])
      // A held copy makes the next removal build a new node and leaves the
      // copy whole.
      let copy = map
      map.removeValue(forKey: 0)
      XCTAssertNotEqual(ObjectIdentifier(map.root), root)
      XCTAssertEqual(copy[0]?.number, 0)
      XCTAssertEqual(copy.count, 2)
      XCTAssertEqual(map.root.fields.spareWords, 0)
      // A copy of a node with spare room gets none: the room is not there.
      var other = PersistentMap<Int, Tracked>()
      other.updateValue(Tracked(0), forKey: 0)
      other.updateValue(Tracked(second), forKey: second)
      other.removeValue(forKey: second)
      XCTAssertEqual(other.root.copy().fields.spareWords, 0)
    }
  }
}



private struct WeakNode {
  weak var node: MapNode<Int, Tracked>?
  init(_ node: MapNode<Int, Tracked>) { self.node = node }
}

final class MapNodeSlotTableTests: XCTestCase {
  func testTheSlotTableNamesEachSlotsEntryOrChildInSlotOrder() {
    // Slots 0 and 2 hold children, 1 and 3 entries, 15 an entry; the rest
    // are empty.
    let table = MapNodeSlots(dataMap: 0b1000_0000_0000_1010, nodeMap: 0b0101)
    XCTAssertEqual(table[slot: 0], MapNodeSlots.childTag)
    XCTAssertEqual(table[slot: 1], 1)
    XCTAssertEqual(table[slot: 2], MapNodeSlots.childTag + 1)
    XCTAssertEqual(table[slot: 3], 2)
    XCTAssertEqual(table[slot: 15], 3)
    for slot in 4..<15 { XCTAssertEqual(table[slot: slot], 0, "slot \(slot)") }
  }

  func testLookupsThroughTheSlotTableAfterEveryKindOfWrite() {
    // Growing, splitting entries into children, inlining single-entry
    // children back and collision buckets all rebuild or copy the table.
    var map = PersistentMap<CollidingKey, Int>()
    var held: [PersistentMap<CollidingKey, Int>] = []
    for value in 0..<400 {
      map.updateValue(value, forKey: CollidingKey(value: value))
      if value % 50 == 0 { held.append(map) }
    }
    for value in stride(from: 0, to: 400, by: 3) { map.removeValue(forKey: CollidingKey(value: value)) }
    XCTAssertEqual(map.invariantViolations(), [])
    for value in 0..<400 {
      XCTAssertEqual(map[CollidingKey(value: value)], value % 3 == 0 ? nil : value, "key \(value)")
    }
    XCTAssertNil(map[CollidingKey(value: 1_000)])
    for (index, snapshot) in held.enumerated() {
      XCTAssertEqual(snapshot.invariantViolations(), [])
      XCTAssertEqual(snapshot.count, index * 50 + 1)
      XCTAssertEqual(snapshot[CollidingKey(value: index * 50)], index * 50)
    }
  }
}

extension MapNodeSlotTableTests {
  func testTheTableMatchesASlotBySlotCountForEveryLayout() {
    var rng = SplitMix64(seed: 16)
    for _ in 0..<20_000 {
      let occupied = UInt32.random(in: 0...0xffff, using: &rng)
      let dataMap = occupied & UInt32.random(in: 0...0xffff, using: &rng)
      let nodeMap = occupied & ~dataMap
      let table = MapNodeSlots(dataMap: dataMap, nodeMap: nodeMap)
      var entry: UInt8 = 1
      var child = MapNodeSlots.childTag
      for slot in 0..<16 {
        let bit = UInt32(1) << UInt32(slot)
        let expected: UInt8
        if dataMap & bit != 0 {
          expected = entry
          entry += 1
        } else if nodeMap & bit != 0 {
          expected = child
          child += 1
        } else {
          expected = 0
        }
        XCTAssertEqual(table[slot: slot], expected, "slot \(slot) of data \(dataMap), nodes \(nodeMap)")
      }
    }
  }
}

extension MapNodeSlotTableTests {
  func testAddingAndRemovingAnEntryUpdatesTheTableAsARebuildWould() {
    var rng = SplitMix64(seed: 61)
    for _ in 0..<20_000 {
      let occupied = UInt32.random(in: 0...0xffff, using: &rng)
      let dataMap = occupied & UInt32.random(in: 0...0xffff, using: &rng)
      let nodeMap = occupied & ~dataMap
      let table = MapNodeSlots(dataMap: dataMap, nodeMap: nodeMap)
      let slot = Int.random(in: 0..<16, using: &rng)
      let bit = UInt32(1) << UInt32(slot)
      let index = (dataMap & (bit - 1)).nonzeroBitCount
      if occupied & bit == 0 {
        let added = table.addingEntry(at: slot, index: index)
        let rebuilt = MapNodeSlots(dataMap: dataMap | bit, nodeMap: nodeMap)
        XCTAssertTrue(added.bytes == rebuilt.bytes, "add \(slot) to \(dataMap), \(nodeMap)")
      } else if dataMap & bit != 0 {
        let removed = table.removingEntry(at: slot, index: index)
        let rebuilt = MapNodeSlots(dataMap: dataMap ^ bit, nodeMap: nodeMap)
        XCTAssertTrue(removed.bytes == rebuilt.bytes, "remove \(slot) from \(dataMap), \(nodeMap)")
      }
    }
  }
}

extension MapNodeSlotTableTests {
  func testReplacingAnEntryByAChildUpdatesTheTableAsARebuildWould() {
    var rng = SplitMix64(seed: 62)
    var checked = 0
    while checked < 10_000 {
      let occupied = UInt32.random(in: 0...0xffff, using: &rng)
      let dataMap = occupied & UInt32.random(in: 0...0xffff, using: &rng)
      let nodeMap = occupied & ~dataMap
      let slot = Int.random(in: 0..<16, using: &rng)
      let bit = UInt32(1) << UInt32(slot)
      guard dataMap & bit != 0 else { continue }
      let index = (dataMap & (bit - 1)).nonzeroBitCount
      let childIndex = (nodeMap & (bit - 1)).nonzeroBitCount
      let replaced = MapNodeSlots(dataMap: dataMap, nodeMap: nodeMap)
        .replacingEntry(at: slot, index: index, withChild: childIndex)
      let rebuilt = MapNodeSlots(dataMap: dataMap ^ bit, nodeMap: nodeMap | bit)
      XCTAssertTrue(replaced.bytes == rebuilt.bytes, "slot \(slot) of \(dataMap), \(nodeMap)")
      checked += 1
    }
  }
}
