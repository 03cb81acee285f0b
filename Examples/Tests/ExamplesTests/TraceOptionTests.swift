import Foundation
import XCTest

@testable import comments
@testable import counter

/// `--trace FILE`: both programs write a trace of their store and the
/// timeline page beside it.
@MainActor
final class TraceOptionTests: XCTestCase {
  private func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  func testCounterTracesTheActionStyleAndWritesThePage() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let captured = CapturedOutput()
    let trace = directory.path("counter.jsonl")
    let status = await Shell.run(
      ["--style", "action", "--delay-ms", "0", "--script", "+ + -", "--trace", trace], output: captured.output)
    XCTAssertEqual(status, 0, "\(captured.errors)")
    let records = try lines(trace)
    XCTAssertEqual(records.first?["format"] as? String, "verge-trace")
    XCTAssertEqual(records.filter { $0["kind"] as? String == "action" }.compactMap { $0["name"] as? String },
      ["increment", "increment", "decrement", "cancelIncrementLater"], "the script ends by cancelling what waits")
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("counter.html")))
    XCTAssertEqual(captured.errors.last, "counter: trace written to \(trace); open \(directory.path("counter.html")) to see it")
  }

  func testCounterTracesTheFreeStylesCommits() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let captured = CapturedOutput()
    let trace = directory.path("free.jsonl")
    let status = await Shell.run(["--script", "+", "--trace", trace], output: captured.output)
    XCTAssertEqual(status, 0, "\(captured.errors)")
    let commit = try XCTUnwrap(try lines(trace).first { $0["kind"] as? String == "commit" })
    XCTAssertEqual(commit["name"] as? String, "increment")
    XCTAssertEqual(commit["diff"] as? [[String: String]], [["path": "count", "before": "0", "after": "1"]])
  }

  func testCommentsTracesItsSession() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let captured = CapturedOutput()
    let trace = directory.path("session.jsonl")
    let status = await CommentsShell.run(
      ["--latency-ms", "0", "--failure-percent", "0", "--script", "refresh; open 1; post Nice", "--trace", trace],
      output: captured.output)
    XCTAssertEqual(status, 0, "\(captured.errors)")
    let records = try lines(trace)
    XCTAssertEqual(records.filter { $0["kind"] as? String == "action" }.compactMap { $0["name"] as? String },
      ["refresh", "loaded", "photo.post", "photo.posted"])
    XCTAssertEqual(records.filter { $0["kind"] as? String == "effectEnd" }.compactMap { $0["outcome"] as? String },
      ["finished", "finished"])
    XCTAssertEqual(records.last?["kind"] as? String, "end")
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("session.html")))
  }

  func testATraceFileThatCannotBeCreatedIsRefused() async {
    let captured = CapturedOutput()
    let status = await CommentsShell.run(["--script", "list", "--trace", "/nonexistent-directory/t.jsonl"], output: captured.output)
    XCTAssertEqual(status, 1)
    XCTAssertEqual(captured.errors, ["comments: trace file /nonexistent-directory/t.jsonl: cannot be created (does its directory exist?)"])
    XCTAssertThrowsError(try CommentsOptions(["--trace", ""]))
    XCTAssertThrowsError(try Options(["--trace"]))
  }
}
