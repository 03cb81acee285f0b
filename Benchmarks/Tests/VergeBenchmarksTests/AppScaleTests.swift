import XCTest

@testable import VergeBenchmarks

final class AppScaleTests: XCTestCase {
  func testQuickModeRunsEveryPathAtTwoSizesOnEveryCollection() {
    let scenario = Scenario.appScale(quick: true)
    let perCollection = AppScalePath.allCases.filter(\.isPerCollection)
    for count in [100, 10_000] {
      for path in perCollection {
        for form in appScaleForms {
          let name = appScaleCaseName(path, form: form.name, count: count)
          XCTAssertTrue(scenario.cases.contains { $0.name == name }, name)
        }
      }
      let orm = appScaleCaseName(.derivedEntity, form: appScaleORMForm, count: count)
      XCTAssertTrue(scenario.cases.contains { $0.name == orm }, orm)
    }
    XCTAssertEqual(Set(scenario.cases.map(\.name)).count, scenario.cases.count, "case names are unique")
    XCTAssertFalse(scenario.cases.contains { $0.name.contains("1,000 rows") })
  }

  func testWatchedRowsAreSpreadAndInRange() {
    XCTAssertEqual(watchedRows(count: 100_000).count, appScaleReaders)
    XCTAssertEqual(watchedRows(count: 100_000).last, 99_900)
    XCTAssertEqual(Set(watchedRows(count: 100_000)).count, appScaleReaders)
    XCTAssertEqual(Set(watchedRows(count: 100)).count, 100)
    XCTAssertTrue(watchedRows(count: 100).allSatisfy { (0..<100).contains($0) })
  }

  func testGrowthIsJudgedInInstructionsFromTheSmallestToTheLargestSize() throws {
    let scenario = Scenario.appScale(quick: true)
    let form = [AppRow].formName
    func counted(
      _ path: AppScalePath, _ count: Int, library: Double, baseline: Double, bytes: Double = 0
    ) -> CaseResult {
      CaseResult(
        name: appScaleCaseName(path, form: form, count: count), units: 1,
        library: SideResult(
          nanosecondsPerOperation: .nan, allocationsPerOperation: 1, bytesPerOperation: bytes,
          instructionsPerOperation: library),
        baseline: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: baseline))
    }
    // 10,000 rows of 24 bytes: a copy is 240,000 bytes, 1% is 2,400.
    let rowBytes = Double(10_000 * MemoryLayout<AppRow>.stride)
    let results = ScenarioResults(cases: [
      counted(.rowAction, 100, library: 200, baseline: 100),
      counted(.rowAction, 10_000, library: 250, baseline: 100, bytes: rowBytes / 200),
      counted(.unrelatedAction, 100, library: 100, baseline: 100),
      counted(.unrelatedAction, 10_000, library: 140, baseline: 100, bytes: rowBytes),
      counted(.observation, 10_000, library: 1, baseline: 1, bytes: rowBytes),
      counted(.removeAndReAdd, 100, library: 1_000, baseline: 800),
      counted(.removeAndReAdd, 10_000, library: 1_500, baseline: 1_600),
    ])
    let verdicts = scenario.targets(results)
    func verdict(_ prefix: String) throws -> TargetVerdict {
      try XCTUnwrap(verdicts.first { $0.target.hasPrefix(prefix) }, prefix)
    }
    XCTAssertEqual(try verdict("(a) row action, [Row]: at most 1.3×").outcome, .met)
    XCTAssertEqual(try verdict("(a) row action, [Row]: at most 1.3×").measured, "1.25× (200 → 250 instr/op)")
    XCTAssertEqual(try verdict("(b) unrelated action, [Row]: at most 1.3×").outcome, .missed)
    // Removing and re-adding grows as the baseline's same writes may, not
    // by at most 1.3×: 1.5× against 2×.
    XCTAssertEqual(try verdict("(c) remove + re-add, [Row]: grows").outcome, .met)
    XCTAssertEqual(try verdict("(c) remove + re-add, [Row]: grows").measured, "0.75× (1.50× against 2.00×)")
    XCTAssertNil(verdicts.first { $0.target.hasPrefix("(c) remove + re-add, [Row]: at most 1.3×") })
    XCTAssertEqual(try verdict("(a) row action, [Row], 10,000 rows: no copy").outcome, .met)
    XCTAssertEqual(try verdict("(b) unrelated action, [Row], 10,000 rows: no copy").outcome, .missed)
    // Observation readers allocate when they read again: not judged on bytes.
    XCTAssertNil(verdicts.first { $0.target.hasPrefix("(e) Observation, [Row], 10,000 rows: no copy") })
    // Paths that did not run are not judged.
    XCTAssertEqual(try verdict("(d) ifChanged closure, [Row]").outcome, .notMeasured)
    XCTAssertEqual(try verdict("(c) remove + re-add, IdentifiedArray: grows").outcome, .notMeasured)
  }

  func testTheChartHasOneSeriesPerPathAndCollection() throws {
    let scenario = Scenario.appScale(quick: true)
    let chart = try XCTUnwrap(scenario.chart)(ScenarioResults(cases: []))
    let perCollection = AppScalePath.allCases.filter(\.isPerCollection).count
    XCTAssertEqual(chart.series.count, perCollection * appScaleForms.count + 1)
    XCTAssertTrue(chart.series.filter { $0.name.hasSuffix(", [Row]") }.allSatisfy(\.dashed))
  }
}

