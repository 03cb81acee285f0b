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

  #if os(Linux) && canImport(Glibc)
  /// A write while the previous version is held copies the nodes on one
  /// path of the tree (10,000 rows: a root over 5 branches over 313 leaves,
  /// three nodes) and nothing of the id trie; each copied node is one
  /// allocation, its labels, counts and children or elements inside it.
  func testAHeldWriteAllocatesOneBlockPerNodeOnItsPath() {
    var rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(10_000))
    // One write first: the first one also instantiates type metadata.
    let warmUp = rows
    rows.updateOrAppend(PeerRow(id: 1))
    XCTAssertEqual(warmUp.count, rows.count)
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
