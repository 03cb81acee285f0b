import XCTest

@testable import VergeBenchmarks

final class ProbeTests: XCTestCase {
  func testProbeRatioNeedsBothSides() {
    XCTAssertEqual(ProbeResult(name: "p", unit: "u", library: 3, baseline: 2).ratio, 1.5)
    XCTAssertNil(ProbeResult(name: "p", unit: "u", library: nil, baseline: 2).ratio)
    XCTAssertNil(ProbeResult(name: "p", unit: "u", library: 3, baseline: 0).ratio)
  }

  func testProbeRunsBothSides() {
    let result = ProbeResult(Probe(name: "p", unit: "u", library: { 4 }, baseline: { 2 }))
    XCTAssertEqual(result.library, 4)
    XCTAssertEqual(result.baseline, 2)
    XCTAssertEqual(result.ratio, 2)
  }

  func testQuickModeShrinksTheBigSetups() {
    let quick = Scenario.orm(quick: true)
    let full = Scenario.orm(quick: false)
    XCTAssertTrue(quick.cases.contains { $0.name == "find by ID in 10,000" })
    XCTAssertTrue(full.cases.contains { $0.name == "find by ID in 1,000,000" })
    XCTAssertEqual(quick.probes.map(\.name), ["memory held by 10,000 entities"])
    XCTAssertEqual(Suite.scenarios(quick: true).map(\.number), Array(1...15))
    XCTAssertFalse(Scenario.peers(quick: true).cases.contains { $0.name.hasSuffix("100,000 rows") })
    XCTAssertTrue(Scenario.peers(quick: false).cases.contains { $0.name.hasSuffix("100,000 rows") })
    XCTAssertTrue(Scenario.persistence(quick: true).cases.contains { $0.name.contains("10,000-entity") })
    XCTAssertTrue(Scenario.persistence(quick: false).cases.contains { $0.name.contains("100,000-entity") })
  }

  func testFilterSelectsProbesByName() throws {
    let settings = try XCTUnwrap(Settings.parse(["--filter", "memory held"]))
    let scenario = Scenario.orm(quick: true)
    XCTAssertEqual(scenario.probes.filter { settings.includes(scenario, $0) }.count, 1)
    XCTAssertTrue(scenario.cases.filter { settings.includes(scenario, $0) }.isEmpty)
  }

  func testRunBlockingWaitsForTheTask() {
    let box = Unshared(Flag())
    runBlocking {
      await Task.yield()
      box.value.set()
    }
    XCTAssertTrue(box.value.isSet)
  }

  #if os(Linux) && canImport(Glibc)
  /// Callgrind counts the measuring thread only: work that does not
  /// suspend must run there.
  func testRunBlockingRunsWorkThatDoesNotSuspendOnTheCallingThread() {
    let caller = pthread_self()
    let ranOn = Unshared(ThreadBox())
    runBlocking { ranOn.value.thread = pthread_self() }
    XCTAssertEqual(ranOn.value.thread.map { pthread_equal($0, caller) }, 1)
  }

  func testHeapBytesHeldSeesWhatIsKept() throws {
    let held = try XCTUnwrap(heapBytesHeld { [UInt8](repeating: 1, count: 1 << 20) })
    XCTAssertGreaterThanOrEqual(held, Double(1 << 20))
    XCTAssertLessThan(held, Double(2 << 20))
  }
  #endif
}

/// A flag set from the task of `runBlocking`.
final class Flag {
  private(set) var isSet = false

  func set() { isSet = true }
}

/// The thread the task of `runBlocking` ran on.
final class ThreadBox {
  var thread: pthread_t?
}
