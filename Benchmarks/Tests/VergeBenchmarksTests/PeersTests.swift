import CAllocationCounter
import Verge
import XCTest

@testable import VergeBenchmarks

final class PeersTests: XCTestCase {
  func testEveryOperationRunsAtEverySizeOnThreeSides() {
    let scenario = Scenario.peers(quick: true)
    XCTAssertEqual(scenario.cases.count, PeerOperation.allCases.count * 2)
    XCTAssertEqual(Set(scenario.cases.map(\.name)).count, scenario.cases.count)
    XCTAssertTrue(scenario.cases.allSatisfy { $0.others.count == scenario.sides.others.count })
    XCTAssertEqual(scenario.sides.others, ["TreeDictionary"])
    let build = scenario.cases.first { $0.name == peerCaseName(.build, size: 10_000) }
    XCTAssertEqual(build?.units, 10_000)
    XCTAssertEqual(scenario.cases.first { $0.name == peerCaseName(.read, size: 100) }?.units, 1)
    // Every operation that reads all elements is counted per element.
    for operation in [PeerOperation.iterate, .forEach, .map, .filter, .contains, .countWhere] {
      XCTAssertEqual(scenario.cases.first { $0.name == peerCaseName(operation, size: 10_000) }?.units, 10_000)
    }
  }

  /// The four whole-collection operations on this library's side give what
  /// the same operations on an array of the rows give (half the rows kept
  /// or counted, none found), the work the peers' figures are of too.
  func testWholeCollectionOperationsDoTheWorkTheirCasesName() {
    let rows = peerRows(1_000)
    let verge = IdentifiedArrayOf<PeerRow>(uniqueElements: rows)
    let even: (PeerRow) -> Bool = { $0.id & 1 == 0 }
    XCTAssertEqual(verge.map { $0.value }, rows.map { $0.value })
    XCTAssertEqual(verge.filter(even).elements, rows.filter(even))
    XCTAssertFalse(verge.contains { $0.id < 0 })
    XCTAssertEqual(verge.count(where: even), 500)
  }

  func testSummaryShowsEachOperationPerElementAndMissingSides() {
    let side = { (instructions: Double) in
      SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: instructions)
    }
    let results = ScenarioResults(cases: [
      CaseResult(
        name: peerCaseName(.iterate, size: 100), units: 100, library: side(6_000), baseline: side(200),
        others: [side(15_000)]),
      CaseResult(
        name: peerCaseName(.removeAndReinsert, size: 100), units: 1, library: side(3_600), baseline: side(17_000),
        others: [nil]),
    ])
    let summary = peerSummary(results, sizes: [100])
    XCTAssertTrue(summary.contains("**iterate (per element)** (instructions per element)"))
    XCTAssertTrue(summary.contains("| 100 | 60 | 2 | 150 |"))
    XCTAssertTrue(summary.contains("| 100 | 3600 | 17000 | n/a |"))
    XCTAssertFalse(summary.contains("read by id"))
  }

  /// The chart draws the held write and `==` of each collection against the
  /// rows, leaving out a side without the figure.
  func testChartDrawsHeldWritesAndEqualityPerCollection() {
    let side = { (instructions: Double) in
      SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: instructions)
    }
    var cases: [CaseResult] = []
    for size in [100, 10_000] {
      cases.append(
        CaseResult(
          name: peerCaseName(.heldWrite, size: size), units: 1, library: side(4_000),
          baseline: side(Double(size) * 70), others: [side(9_000)]))
      cases.append(
        CaseResult(
          name: peerCaseName(.equality, size: size), units: 1, library: side(900),
          baseline: side(Double(size) * 16), others: [nil]))
    }
    let chart = peerChart(ScenarioResults(cases: cases), sizes: [100, 10_000])
    XCTAssertEqual(chart.series.count, 6)
    let held = chart.series.first { $0.name == "held write, swift-identified-collections" }
    XCTAssertEqual(held?.points.map(\.y), [7_000, 700_000])
    XCTAssertEqual(held?.dashed, false)
    let equality = chart.series.filter { $0.name.hasPrefix("==") }
    XCTAssertTrue(equality.allSatisfy(\.dashed))
    // TreeDictionary's `==` is missing: its series has no point and is not drawn.
    XCTAssertEqual(chart.drawnSeries.count, 5)
    XCTAssertTrue(chart.svg().contains("IdentifiedArray against its peers"))
  }

  #if os(Linux) && canImport(Glibc)
  /// A write while the previous version is held copies the nodes on one
  /// path of the tree (10,000 rows: a root over 5 branches over 313 leaves,
  /// three nodes) and nothing of the id trie; each copied node is one
  /// allocation, its labels, counts and children or elements inside it.
  func testAHeldWriteAllocatesOneBlockPerNodeOnItsPath() {
    var rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(10_000))
    // Two writes first, each with a version held: the first run of each
    // path also instantiates type metadata, and the second copies a branch
    // that the first one's copy borrows from (the path a held write takes
    // from then on).
    for _ in 0..<2 {
      let warmUp = rows
      rows.updateOrAppend(PeerRow(id: 1))
      XCTAssertEqual(warmUp.count, rows.count)
    }
    for (step, id) in [17, 5_000, 9_999, 17].enumerated() {
      let held = rows
      let previous = held[id: id]?.value
      var row = PeerRow(id: id)
      row.value = step + 1
      let before = allocation_counter_count()
      let replaced = rows.updateOrAppend(row)
      let allocations = allocation_counter_count() - before
      XCTAssertEqual(allocations, 3, "id \(id)")
      XCTAssertEqual(replaced?.value, previous)
      XCTAssertEqual(rows[id: id]?.value, step + 1)
      XCTAssertEqual(held[id: id]?.value, previous, "the held version is unchanged")
    }
  }
  #endif
}
