import XCTest

@testable import VergeBenchmarks

final class CompositionLevelsTests: XCTestCase {
  /// A case of scenario 13 whose name starts with `prefix`, counted at
  /// `instructions` per operation.
  private func counted(_ scenario: Scenario, _ prefix: String, _ instructions: Double) throws -> CaseResult {
    let name = try XCTUnwrap(scenario.cases.first { $0.name.hasPrefix(prefix) }?.name, prefix)
    return CaseResult(
      name: name, units: 1,
      library: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: instructions),
      baseline: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 100))
  }

  func testARowActionIsJudgedAgainstTheActionOfNoRowPlusTheListsOwnWrite() throws {
    let scenario = Scenario.compositionLevels
    let results = ScenarioResults(cases: [
      try counted(scenario, "forEach over 100 rows: a row's action", 450),
      try counted(scenario, "forEach over 100 rows: an action for an id not in the list", 250),
      try counted(scenario, "forEach over 100 rows: the list alone", 200),
      try counted(scenario, "forEach over 100,000 rows: a row's action", 900),
      try counted(scenario, "forEach over 100,000 rows: an action for an id not in the list", 300),
      try counted(scenario, "forEach over 100,000 rows: the list alone", 500),
    ])
    let verdicts = scenario.targets(results)
    func verdict(_ rows: String) throws -> TargetVerdict {
      let prefix = "forEach over \(rows) rows: a row's action at most"
      return try XCTUnwrap(verdicts.first { $0.target.hasPrefix(prefix) }, prefix)
    }
    XCTAssertEqual(try verdict("100").outcome, .met)
    XCTAssertEqual(try verdict("100").measured, "1.00×")
    XCTAssertEqual(try verdict("100,000").outcome, .missed)
    XCTAssertTrue(try verdict("100,000").measured.hasPrefix("1.13×"))
  }

  func testATargetWhoseCasesDidNotRunIsNotJudged() throws {
    let verdicts = Scenario.compositionLevels.targets(ScenarioResults(cases: []))
    let forEach = verdicts.filter { $0.target.hasPrefix("forEach over") }
    XCTAssertEqual(forEach.count, 2)
    XCTAssertTrue(forEach.allSatisfy { $0.outcome == .notMeasured })
  }
}
