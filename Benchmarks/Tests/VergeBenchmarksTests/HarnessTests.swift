import CAllocationCounter
import XCTest

@testable import VergeBenchmarks

final class HarnessTests: XCTestCase {
  func testVerdictsJudgeAtMost() {
    let met = TargetVerdict.atMost("t", 1.5, limit: 2, format: Formatting.ratio)
    XCTAssertEqual(met.outcome, .met)
    XCTAssertEqual(met.measured, "1.50×")
    let missed = TargetVerdict.atMost("t", 5, limit: 2, format: Formatting.ratio)
    XCTAssertEqual(missed.outcome, .missed)
    XCTAssertEqual(missed.measured, "5.00× (2.50× over the limit)")
    let absent = TargetVerdict.atMost("t", nil, limit: 2, format: Formatting.ratio)
    XCTAssertEqual(absent.outcome, .notMeasured)
  }

  func testMedianOfOddAndEvenCounts() {
    XCTAssertEqual(Sample.median([3, 1, 2]), 2)
    XCTAssertEqual(Sample.median([4, 1, 3, 2]), 2.5)
  }

  func testSettingsParsing() throws {
    let quick = try XCTUnwrap(Settings.parse(["--quick", "--filter", "derived"]))
    XCTAssertTrue(quick.isQuick)
    XCTAssertEqual(quick.filter, "derived")
    XCTAssertEqual(Settings.parse([])?.isQuick, false)
    XCTAssertNil(Settings.parse(["--bogus"]))
    XCTAssertNil(Settings.parse(["--filter"]))
  }

  func testCallgrindModeParsesItsOutputFile() throws {
    let settings = try XCTUnwrap(Settings.parse(["--callgrind", "/tmp/out", "--quick"]))
    XCTAssertEqual(settings.callgrindOutput, "/tmp/out")
    XCTAssertTrue(settings.countsInstructions)
    XCTAssertEqual(settings.repetitions, 1)
    XCTAssertNil(Settings.parse(["--callgrind"]))
    XCTAssertFalse(try XCTUnwrap(Settings.parse(["--quick"])).countsInstructions)
  }

  func testSVGOutputAndPaceSettings() throws {
    let settings = try XCTUnwrap(Settings.parse(["--svg", "/tmp/chart.svg"]))
    XCTAssertEqual(settings.svgOutput, "/tmp/chart.svg")
    XCTAssertNil(Settings.parse(["--svg"]))
    let pace = Pace(batchDuration: .milliseconds(10), repetitions: 7)
    let paced = settings.paced(pace)
    XCTAssertEqual(paced.batchDuration, .milliseconds(10))
    XCTAssertEqual(paced.repetitions, 7)
    // Quick and instruction-count runs keep their own batches.
    XCTAssertEqual(Settings.quick.paced(pace).repetitions, Settings.quick.repetitions)
    let counting = try XCTUnwrap(Settings.parse(["--callgrind", "/tmp/out"]))
    XCTAssertEqual(counting.paced(pace).batchDuration, counting.batchDuration)
  }

  func testCallgrindDumpTotalIsRead() {
    let dump = "events: Ir\nsummary: 0\n\nfn=(0) main\n0 600014\n\ntotals: 600014\n"
    XCTAssertEqual(CallgrindDumps.total(in: dump), 600_014)
    XCTAssertNil(CallgrindDumps.total(in: "events: Ir\n"))
  }

  func testRatioPrefersInstructionsAndTimeTargetsAreNotJudgedOnThem() {
    let counted = CaseResult(
      name: "c", units: 1,
      library: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 300),
      baseline: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 100))
    XCTAssertEqual(counted.ratio, 3)
    let timed = CaseResult(
      name: "t", units: 1,
      library: SideResult(nanosecondsPerOperation: 20),
      baseline: SideResult(nanosecondsPerOperation: 10))
    XCTAssertEqual(timed.ratio, 2)
    let absolute = TargetVerdict.atMost(
      "t", counted.library.nanosecondsPerOperation, limit: 30, format: Formatting.time)
    XCTAssertEqual(absolute.outcome, .notMeasured)
  }

  func testFurtherSidesHaveColumnsAndRatiosOfTheirOwn() {
    let sides = SideNames(library: "A", baseline: "B", others: ["C"])
    let counted = SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 100)
    let results = ScenarioResults(cases: [
      CaseResult(
        name: "three", units: 1, library: counted,
        baseline: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 50),
        others: [SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 400)]),
      CaseResult(
        name: "without C", units: 10, library: counted,
        baseline: SideResult(nanosecondsPerOperation: .nan, instructionsPerOperation: 200),
        others: [nil]),
    ])
    XCTAssertEqual(results.cases[0].ratio(toOther: 0), 0.25)
    XCTAssertNil(results.cases[1].ratio(toOther: 0))
    XCTAssertNil(results.cases[0].ratio(toOther: 1))
    let lines = Report.tableLines(sides, results)
    XCTAssertEqual(
      lines[0],
      "| Case | A instr/op | B instr/op | Ratio | C instr/op | Ratio to C | A allocs/op | B allocs/op | C allocs/op | A bytes/op | B bytes/op | C bytes/op |"
    )
    XCTAssertEqual(lines[1], "| --- |" + String(repeating: " ---: |", count: 11))
    XCTAssertEqual(lines[2], "| three | 100 | 50 | 2.00× | 400 | 0.25× | n/a | n/a | n/a | n/a | n/a | n/a |")
    // A side without the operation reads n/a, and no per-unit figures are
    // shown for a case some side lacks.
    XCTAssertEqual(lines[3], "| without C | 100 | 200 | 0.50× | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |")
  }

  func testTwoSidedTablesKeepTheirColumns() {
    let results = ScenarioResults(cases: [
      CaseResult(
        name: "c", units: 4, library: SideResult(nanosecondsPerOperation: 40),
        baseline: SideResult(nanosecondsPerOperation: 20))
    ])
    XCTAssertEqual(
      Report.tableLines(SideNames(), results),
      [
        "| Case | Verge time/op | Baseline time/op | Ratio | Verge allocs/op | Baseline allocs/op | Verge bytes/op | Baseline bytes/op |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        "| c (per unit: 10.0 ns vs 5.0 ns) | 40.0 ns | 20.0 ns | 2.00× | n/a | n/a | n/a | n/a |",
      ])
  }

  func testFilterMatchesScenarioTitleAndCaseName() throws {
    let settings = try XCTUnwrap(Settings.parse(["--filter", "COUNTER 1 sub"]))
    let scenario = Scenario.commit
    let names = scenario.cases.filter { settings.includes(scenario, $0) }.map(\.name)
    XCTAssertEqual(names, ["1 subscriber"])
  }

  #if os(Linux) && canImport(Glibc)
  func testAllocationCounterSeesAllocations() {
    XCTAssertEqual(allocation_counter_is_available(), 1)
    XCTAssertTrue(allocationCounterWorks())
    let before = allocation_counter_count()
    let bytesBefore = allocation_counter_bytes()
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: 4_096, alignment: 16)
    pointer.deallocate()
    XCTAssertEqual(allocation_counter_count() - before, 1)
    XCTAssertGreaterThanOrEqual(allocation_counter_bytes() - bytesBefore, 4_096)
  }

  func testMeasurementReportsAllocationsPerOperation() {
    var settings = Settings.quick
    settings.batchDuration = .milliseconds(1)
    let measurement = Measurement(settings: settings, countsAllocations: true)
    let result = measurement.measure(
      BenchmarkCase(
        name: "allocating vs not",
        library: {
          Workload { iterations in
            for _ in 0..<iterations {
              let pointer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
              blackHole(pointer)
              pointer.deallocate()
            }
          }
        },
        baseline: {
          Workload { iterations in
            for index in 0..<iterations { blackHole(index) }
          }
        }))
    XCTAssertEqual(result.library.allocationsPerOperation, 1)
    XCTAssertEqual(result.library.bytesPerOperation, 64)
    XCTAssertEqual(result.baseline.allocationsPerOperation, 0)
    XCTAssertGreaterThan(result.library.nanosecondsPerOperation, 0)
    XCTAssertGreaterThan(result.baseline.nanosecondsPerOperation, 0)
  }

  func testMeasurementMeasuresEveryFurtherSide() {
    var settings = Settings.quick
    settings.batchDuration = .milliseconds(1)
    let measurement = Measurement(settings: settings, countsAllocations: true)
    let allocating = {
      Workload { iterations in
        for _ in 0..<iterations {
          for _ in 0..<2 {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 16)
            blackHole(pointer)
            pointer.deallocate()
          }
        }
      }
    }
    let idle = { Workload { iterations in for index in 0..<iterations { blackHole(index) } } }
    let result = measurement.measure(
      BenchmarkCase(
        name: "three sides", library: idle, baseline: idle, others: [allocating, { nil }, idle]))
    XCTAssertEqual(result.others.count, 3)
    XCTAssertEqual(result.others[0]?.allocationsPerOperation, 2)
    XCTAssertNil(result.others[1])
    XCTAssertEqual(result.others[2]?.allocationsPerOperation, 0)
    XCTAssertEqual(result.library.allocationsPerOperation, 0)
    XCTAssertEqual(result.baseline.allocationsPerOperation, 0)
  }
  #endif
}
