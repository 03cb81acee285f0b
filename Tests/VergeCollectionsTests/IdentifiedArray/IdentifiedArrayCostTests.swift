@testable import VergeCollections
import VergeTestSupport
import XCTest

/// The costs `IdentifiedArray` promises, checked by counting work (nodes
/// examined, nodes allocated), never by timing.
final class IdentifiedArrayCostTests: XCTestCase {
  private static let size = 100_000
  private let large = IdentifiedArrayOf<Row>(uniqueElements: (0..<size).map { Row($0) })

  /// How many id-map nodes of `array` `other` does not share.
  private func mapNodesNotShared(_ array: IdentifiedArrayOf<Row>, _ other: IdentifiedArrayOf<Row>) -> Int {
    var theirs = Set<ObjectIdentifier>()
    func collect(_ node: MapNode<Int, UInt64>) {
      theirs.insert(ObjectIdentifier(node))
      node.children.forEach(collect)
    }
    collect(other.positions.root)
    func count(_ node: MapNode<Int, UInt64>) -> Int {
      theirs.contains(ObjectIdentifier(node)) ? 0 : 1 + node.children.reduce(0) { $0 + count($1) }
    }
    return count(array.positions.root)
  }

  func testTreeIsShallow() {
    // 100,000 elements in leaves of at most 64, branches of at most 64.
    XCTAssertEqual(large.list.height, 3)
  }

  func testCopyIsSharedNotCopied() {
    let copy = large
    XCTAssertTrue(copy.list.root === large.list.root)
    XCTAssertTrue(copy.hasIdenticalIDs(to: large))
    XCTAssertEqual(copy.list.nodesNotShared(with: large.list), 0)
  }

  func testWriteByIDUnderAHeldCopyCopiesOnePath() {
    let held = large
    var array = large
    array[id: 54_321]?.value = "changed"
    let height = array.list.height
    XCTAssertEqual(array.list.nodesNotShared(with: held.list), height, "one node per level, not the array")
    XCTAssertTrue(array.hasIdenticalIDs(to: held), "a write that keeps the id leaves the ids' storage alone")
    XCTAssertEqual(held[id: 54_321]?.value, "")
    // A second write to the now unshared path copies nothing more.
    array[id: 54_322]?.value = "again"
    XCTAssertEqual(array.list.nodesNotShared(with: held.list), height)
  }

  func testWriteByIndexUnderAHeldCopyCopiesOnePath() {
    let held = large
    var array = large
    array[77_777].value = "changed"
    XCTAssertEqual(array.list.nodesNotShared(with: held.list), array.list.height)
    XCTAssertTrue(array.hasIdenticalIDs(to: held))
  }

  func testInsertAndRemoveUnderAHeldCopyCopyPaths() {
    let held = large
    var array = large
    array.insert(Row(-1), at: 50_000)
    array.remove(id: 10)
    array.append(Row(-2))
    let height = array.list.height
    // Each write copies one path, plus a sibling when a node splits or refills.
    XCTAssertLessThanOrEqual(array.list.nodesNotShared(with: held.list), 3 * (height + 1))
    // The id map: one path of a 16-way trie per write.
    XCTAssertLessThanOrEqual(mapNodesNotShared(array, held), 3 * 6)
    XCTAssertFalse(array.hasIdenticalIDs(to: held))
    XCTAssertEqual(held.count, Self.size)
  }

  /// Putting back an element just removed from the edge of a full leaf
  /// (the leaves of `large` are full) fills the gap it left instead of
  /// splitting the full neighbour across the boundary.
  func testPuttingBackAnElementRemovedFromALeafsEdgeSplitsNothing() {
    func leaves(_ node: ListNode<Row>) -> Int {
      node.isLeaf ? 1 : node.children.reduce(0) { $0 + leaves($1) }
    }
    let before = leaves(large.list.root)
    // The last element of the first leaf, of a leaf under the second branch,
    // and the first element of a leaf.
    for index in [63, 64 * 64 * 2 + 63, 640] {
      var array = large
      let element = array.remove(at: index)
      array.insert(element, at: index)
      XCTAssertEqual(leaves(array.list.root), before, "at \(index)")
      XCTAssertEqual(array, large)
      XCTAssertEqual(array.invariantViolations(), [])
    }
  }

  func testWriteAllocatesBoundedStorageNotTheArray() {
    let held = large
    var array = large
    array[id: 99_999]?.value = "changed"
    // The storage of the nodes a write made: at most a leaf of elements and
    // a branch of children per level, a few dozen slots, not 100,000.
    var heldNodes = Set<ObjectIdentifier>()
    func collect(_ node: ListNode<Row>) {
      heldNodes.insert(ObjectIdentifier(node))
      node.children.forEach(collect)
    }
    collect(held.list.root)
    func newSlots(_ node: ListNode<Row>) -> Int {
      if heldNodes.contains(ObjectIdentifier(node)) { return 0 }
      return node.width + node.children.reduce(0) { $0 + newSlots($1) }
    }
    XCTAssertLessThanOrEqual(newSlots(array.list.root), array.list.height * ListNode<Row>.branchCapacity)
  }

  func testEqualityOfSharedVersionsVisitsOnlyWhatDiffers() {
    var changed = large
    changed[id: 12_345]?.value = "changed"
    var visited = 0
    XCTAssertFalse(large.isEqual(to: changed, visitedNodes: &visited))
    XCTAssertLessThanOrEqual(visited, large.list.height, "one path")

    var same = large
    same[id: 12_345]?.value = ""
    visited = 0
    XCTAssertTrue(large.isEqual(to: same, visitedNodes: &visited), "equal again after writing the old value back")
    XCTAssertLessThanOrEqual(visited, large.list.height)

    visited = 0
    XCTAssertTrue(large.isEqual(to: large, visitedNodes: &visited))
    XCTAssertEqual(visited, 0, "a copy compares by identity")
  }

  func testEqualityAfterShapeChangesStillSkipsSharedLeaves() {
    // An insertion and a removal elsewhere keep the count but split a leaf:
    // the shapes differ below one branch, whose shared leaves are skipped.
    var reshaped = large
    reshaped.insert(Row(-1), at: 40_000)
    reshaped.remove(id: 39_000)
    let expected = IdentifiedArrayOf<Row>(uniqueElements: large.filter { $0.id != 39_000 }.elements)
    var visited = 0
    XCTAssertFalse(expected.isEqual(to: reshaped, visitedNodes: &visited))
    visited = 0
    var back = reshaped
    back.remove(id: -1)
    back.insert(Row(39_000), at: 39_000)
    XCTAssertTrue(back.isEqual(to: large, visitedNodes: &visited))
    let allNodes = Self.size / (ListNode<Row>.leafCapacity / 4)
    XCTAssertLessThanOrEqual(visited, 4 * large.list.height * 3, "visited \(visited) nodes of up to \(allNodes)")
  }

  func testDiffOfSharedVersionsVisitsOnlyTheChangedLeaves() {
    var changed = large
    changed[id: 12_345]?.value = "changed"
    changed.append(Row(-1))
    changed.remove(id: 70_000)
    var visited = 0
    large.list.forEachElementNotShared(with: changed.list, { _ in visited += 1 }, { _ in visited += 1 })
    // Three leaves changed on each side: at most a leaf's worth each.
    XCTAssertGreaterThan(visited, 0)
    XCTAssertLessThanOrEqual(visited, 2 * 3 * ListNode<Row>.leafCapacity, "visited \(visited) of \(Self.size) rows")

    guard let (own, other) = large.diffRepresentations(against: changed),
      case .entries(let expected) = own, case .entries(let actual) = other
    else { return XCTFail("an IdentifiedArray lists its differing elements by id") }
    XCTAssertEqual(expected.map(\.key), ["id: 12345", "id: 70000"])
    XCTAssertEqual(actual.map(\.key), ["id: 12345", "id: -1"])
  }

  func testDiffOfCopiesIsEmpty() {
    guard let (own, other) = large.diffRepresentations(against: large),
      case .entries(let expected) = own, case .entries(let actual) = other
    else { return XCTFail("an IdentifiedArray lists its differing elements by id") }
    XCTAssertTrue(expected.isEmpty && actual.isEmpty)
  }

  func testEqualityOfUnrelatedArraysVisitsEverything() {
    let rebuilt = IdentifiedArrayOf<Row>(uniqueElements: large.elements)
    var visited = 0
    XCTAssertTrue(large.isEqual(to: rebuilt, visitedNodes: &visited))
    XCTAssertGreaterThanOrEqual(visited, Self.size / ListNode<Row>.leafCapacity, "no sharing: every leaf")
  }
}
