@testable import VergeCollections
import VergeTestSupport
import XCTest

/// Iteration reads the leaves' elements in a row and descends from the root
/// only once per branch of leaves, and every way of reading all elements
/// (`for … in`, `forEach`, `map`, `filter`, `contains`, `count(where:)`)
/// sees them in order.
final class IdentifiedArrayIterationTests: XCTestCase {
  /// An array whose leaves are unevenly filled: built, then thinned and
  /// grown again at random places.
  private func unevenArray(count: Int, seed: UInt64) -> IdentifiedArrayOf<Row> {
    var rng = SplitMix64(seed: seed)
    var array = IdentifiedArrayOf<Row>(uniqueElements: (0..<count).map { Row($0, "v\($0)") })
    for step in 0..<count / 4 {
      array.remove(at: Int(rng.next() % UInt64(array.count)))
      if step % 2 == 0 {
        array.insert(Row(count + step, "n\(step)"), at: Int(rng.next() % UInt64(array.count + 1)))
      }
    }
    return array
  }

  /// The elements read one index at a time, a path that does not iterate.
  private func byIndex(_ array: IdentifiedArrayOf<Row>) -> [Row] {
    (0..<array.count).map { array[$0] }
  }

  func testEveryReadingOfAllElementsMatchesReadingByIndex() {
    for count in [0, 1, 63, 64, 65, 4_096, 10_000] {
      let array = unevenArray(count: count, seed: UInt64(count) + 1)
      let expected = byIndex(array)
      var iterated: [Row] = []
      for row in array { iterated.append(row) }
      XCTAssertEqual(iterated, expected, "for-in, \(count)")
      var visited: [Row] = []
      array.forEach { visited.append($0) }
      XCTAssertEqual(visited, expected, "forEach, \(count)")
      XCTAssertEqual(array.map(\.id), expected.map(\.id), "map, \(count)")
      XCTAssertEqual(array.elements, expected, "elements, \(count)")
      let odd: (Row) -> Bool = { $0.id % 2 == 1 }
      XCTAssertEqual(array.filter(odd).elements, expected.filter(odd), "filter, \(count)")
      XCTAssertEqual(array.count(where: odd), expected.count(where: odd), "count(where:), \(count)")
      if let last = expected.last {
        XCTAssertTrue(array.contains(last))
        XCTAssertTrue(array.contains { $0.id == last.id })
        XCTAssertEqual(array.firstIndex { $0.id == last.id }, expected.count - 1)
      }
      XCTAssertFalse(array.contains(Row(-1)))
      XCTAssertFalse(array.contains { $0.id < 0 })
      XCTAssertNil(array.firstIndex { $0.id < 0 })
    }
  }

  func testIteratorDescendsOncePerBranchAboveLeaves() {
    for count in [10, 100, 5_000, 100_000] {
      let array = unevenArray(count: count, seed: 7)
      var iterator = array.list.makeIterator()
      var seen = 0
      while iterator.next() != nil { seen += 1 }
      XCTAssertEqual(seen, array.count)
      XCTAssertNil(iterator.next(), "stays at the end")
      // One descent per branch whose children are leaves (one for a root
      // that is a leaf): not one per element, nor per leaf.
      XCTAssertEqual(iterator.descents, Self.branchesAboveLeaves(array.list.root), "\(count) elements")
    }
  }

  func testIteratorReadsEachLeafOnceAndEndsForGood() {
    for count in [0, 1, 31, 32, 33, 100, 5_000, 100_000] {
      let array = unevenArray(count: count, seed: 11)
      var iterator = array.list.makeIterator()
      var seen = 0
      while iterator.next() != nil { seen += 1 }
      XCTAssertEqual(seen, array.count)
      // A step within a leaf reads no node: the leaves were read one time
      // each, whatever the element count.
      XCTAssertEqual(iterator.leaves, Self.leaves(array.list.root).count, "\(count) elements")
      for _ in 0..<3 { XCTAssertNil(iterator.next(), "stays at the end, \(count)") }
      XCTAssertEqual(iterator.leaves, Self.leaves(array.list.root).count, "no leaf read after the end")
    }
  }

  func testLeafWalkHandsOutEveryLeafsOwnStorageInOrder() {
    for count in [0, 1, 64, 2_049, 70_000] {
      let array = unevenArray(count: count, seed: 13)
      let expected = Self.leaves(array.list.root).filter { $0.width > 0 }
      var walk = array.list.leafWalk()
      var index = 0
      while true {
        let leaf = walk.nextLeaf()
        if leaf.isEmpty { break }
        XCTAssertLessThan(index, expected.count)
        guard index < expected.count else { break }
        XCTAssertEqual(leaf.baseAddress, UnsafePointer(expected[index].elementBase), "leaf \(index) of \(count)")
        XCTAssertEqual(leaf.count, expected[index].width)
        index += 1
      }
      XCTAssertEqual(index, expected.count, "\(count) elements")
      XCTAssertEqual(walk.leaves, expected.count)
    }
  }

  /// Every whole-collection operation gives what the same operation on an
  /// `Array` of the elements gives.
  func testEveryOperationMatchesTheSameOnAnArray() {
    for count in [0, 1, 32, 33, 100, 2_100] {
      let array = unevenArray(count: count, seed: UInt64(count) + 17)
      let plain = byIndex(array)
      XCTAssertEqual(Array(array), plain, "Array(_:), \(count)")
      XCTAssertEqual(ContiguousArray(array), ContiguousArray(plain), "ContiguousArray(_:), \(count)")
      XCTAssertEqual(array.map { $0.id * 3 }, plain.map { $0.id * 3 }, "map, \(count)")
      let third: (Row) -> Bool = { $0.id % 3 == 0 }
      XCTAssertEqual(array.filter(third).elements, plain.filter(third), "filter, \(count)")
      XCTAssertEqual(array.count(where: third), plain.count(where: third), "count(where:), \(count)")
      XCTAssertEqual(array.reduce(0) { $0 &* 31 &+ $1.id }, plain.reduce(0) { $0 &* 31 &+ $1.id }, "reduce, \(count)")
      XCTAssertEqual(Array(array.lazy.filter(third).map(\.id)), plain.filter(third).map(\.id), "lazy, \(count)")
      for probe in [-1, 0, count / 2, count - 1, count + 5_000] {
        let hit: (Row) -> Bool = { $0.id == probe }
        XCTAssertEqual(array.contains(where: hit), plain.contains(where: hit), "contains(where:) \(probe), \(count)")
        XCTAssertEqual(array.first(where: hit), plain.first(where: hit), "first(where:) \(probe), \(count)")
        XCTAssertEqual(array.firstIndex(where: hit), plain.firstIndex(where: hit), "firstIndex(where:) \(probe), \(count)")
      }
      var iterated: [Row] = []
      var iterator = array.makeIterator()
      while let row = iterator.next() { iterated.append(row) }
      XCTAssertEqual(iterated, plain, "makeIterator, \(count)")
    }
  }

  /// The leaves under `node`, in order.
  private static func leaves(_ node: ListNode<Row>) -> [ListNode<Row>] {
    if node.isLeaf { return node.width > 0 ? [node] : [] }
    return node.children.flatMap { leaves($0) }
  }

  private static func branchesAboveLeaves(_ node: ListNode<Row>) -> Int {
    if node.isLeaf { return 1 }
    if node.children[0].isLeaf { return 1 }
    return node.children.reduce(0) { $0 + branchesAboveLeaves($1) }
  }

  func testAnIteratorKeepsReadingTheVersionItStartedOn() {
    var array = unevenArray(count: 1_000, seed: 3)
    let before = byIndex(array)
    var iterator = array.makeIterator()
    var read: [Row] = []
    for _ in 0..<10 { read.append(iterator.next()!) }
    // Writes in place where the array is unique, removals and insertions:
    // none may show through the iterator.
    for index in stride(from: 0, to: array.count, by: 3) { array[index].value = "changed" }
    array.removeSubrange(0..<200)
    array.append(Row(5_000))
    while let row = iterator.next() { read.append(row) }
    XCTAssertEqual(read, before)
  }

  func testMapStopsAtTheFirstErrorAndThrowsIt() {
    struct Stop: Error, Equatable { let id: Int }
    let array = unevenArray(count: 300, seed: 5)
    var calls = 0
    XCTAssertThrowsError(
      try array.map { (row: Row) throws(Stop) -> String in
        calls += 1
        if calls == 150 { throw Stop(id: row.id) }
        return row.value
      }
    ) { error in
      XCTAssertEqual(error as? Stop, Stop(id: self.byIndex(array)[149].id))
    }
    XCTAssertEqual(calls, 150)
  }
}
