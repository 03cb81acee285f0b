import Dispatch
import Foundation
import Verge
import VergeTestSupport
import XCTest

@testable import VergeNeue

/// An inbox with rows by id, an effect that loads (and may be cancelled
/// or fail), and an activity: what a trace records.
struct InboxFeature: ActionReducer {
  struct Row: Identifiable, Equatable, Sendable, Codable {
    var id: Int
    var isRead = false
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = []
    var loads = 0
    var error: String?
  }

  enum Action: Sendable, Equatable, Codable {
    case load(count: Int)
    case loaded([Row])
    case markRead(id: Int)
    case hang
    case failing
    case failed(String)
  }

  enum Activity: Sendable, Equatable {
    case announced(Int)
  }

  /// What a load's effect waits for; `nil` loads at once.
  var gate: Gate?

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .load(let count):
      state.loads += 1
      let gate = gate
      return .run { send in
        await gate?.wait()
        send(.loaded((1...count).map { Row(id: $0) }))
      }
    case .loaded(let rows):
      state.rows = IdentifiedArray(uniqueElements: rows)
      return .activity(.announced(rows.count))
    case .markRead(let id):
      state.rows[id: id]?.isRead = true
    case .hang:
      // Swallows its cancellation and returns: still traced as cancelled.
      return .run { _ in
        let (stream, continuation) = AsyncStream.makeStream(of: Never.self)
        for await _ in stream {}
        continuation.finish()
      }
      .cancellable(id: "hang", cancelInFlight: true)
    case .failing:
      return .run { _ in throw TestFailure(message: "offline") }
    case .failed(let message):
      state.error = message
    }
    return .none
  }
}

/// The records of a trace file, parsed.
func traceRecords(_ url: URL) throws -> [[String: Any]] {
  let text = try String(contentsOf: url, encoding: .utf8)
  return try text.split(separator: "\n").map {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
  }
}

func temporaryTraceURL(_ name: String = #function) -> URL {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("verge-trace-\(name.filter(\.isLetter))-\(UUID().uuidString).jsonl")
}

final class TraceTests: XCTestCase {
  /// Runs a session traced to `url` and finishes the trace: a load (its
  /// effect waits for the gate), a row marked read, an effect cancelled by
  /// the next, a failing effect.
  ///
  /// - Returns: The store the session ran on.
  private func runTracedSession(to url: URL) async throws -> ActionStore<InboxFeature> {
    let gate = Gate()
    let store = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature(gate: gate), onEffectError: { _ in })
    let trace = try Trace(store, writingTo: url)
    let load = store.send(.load(count: 3))
    gate.open()
    await load.finish()
    store.send(.markRead(id: 2))
    store.send(.hang)
    store.send(.hang)  // cancels the first
    await store.send(.failing).finish()
    store.cancelAllEffects()
    await store.waitUntilIdle()
    try await trace.finish()
    return store
  }

  func testATraceRecordsActionsWithCauseDiffEffectsAndActivities() async throws {
    let url = temporaryTraceURL()
    defer { try? FileManager.default.removeItem(at: url) }
    _ = try await runTracedSession(to: url)

    let records = try traceRecords(url)
    let header = try XCTUnwrap(records.first)
    XCTAssertEqual(header["kind"] as? String, "header")
    XCTAssertEqual(header["format"] as? String, "verge-trace")
    XCTAssertEqual(header["version"] as? Int, 1)
    XCTAssertEqual(header["actionType"] as? String, "InboxFeature.Action")
    XCTAssertEqual(header["stateType"] as? String, "InboxFeature.State")

    let actions = records.filter { $0["kind"] as? String == "action" }
    XCTAssertEqual(actions.map { $0["name"] as? String }, ["load", "loaded", "markRead", "hang", "hang", "failing"])
    XCTAssertEqual(actions.map { ($0["cause"] as? [String: Any])?["kind"] as? String }, ["send", "effect", "send", "send", "send", "send"])
    let loaded = actions[1]
    XCTAssertEqual((loaded["cause"] as? [String: Any])?["origin"] as? String, ".load(count: 3)")
    XCTAssertEqual((loaded["cause"] as? [String: Any])?["effect"] as? Int, 1)
    XCTAssertNotNil(loaded["duration"] as? Int)

    // The diff reads as the TestStore's does: by path, before → after.
    let markRead = try XCTUnwrap(actions[2]["diff"] as? [[String: String]])
    XCTAssertEqual(markRead, [["path": "rows[id: 2].isRead", "before": "false", "after": "true"]])
    XCTAssertEqual(actions[2]["payload"] as? String, ".markRead(id: 2)")
    let state = try XCTUnwrap(actions[2]["state"] as? [String])
    XCTAssertEqual(state.count, 3)
    XCTAssertTrue(state[1] == "loads: 1", "\(state)")
    // Encodable actions are kept as JSON, for replay.
    XCTAssertNotNil(actions[2]["action"] as? [String: Any])

    let seqs = records.dropFirst().compactMap { $0["seq"] as? Int }
    XCTAssertEqual(seqs, Array(1...seqs.count), "events are numbered in order with no gap")

    let starts = records.filter { $0["kind"] as? String == "effectStart" }
    XCTAssertEqual(starts.map { $0["effect"] as? Int }, [1, 2, 3, 4])
    XCTAssertEqual(starts.map { $0["originSeq"] as? Int }, [actions[0]["seq"], actions[3]["seq"], actions[4]["seq"], actions[5]["seq"]].map { $0 as? Int })
    let ends = Dictionary(
      records.filter { $0["kind"] as? String == "effectEnd" }.map { ($0["effect"] as? Int ?? 0, $0["outcome"] as? String ?? "") },
      uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(ends, [1: "finished", 2: "cancelled", 3: "cancelled", 4: "failed"])
    let failed = try XCTUnwrap(records.first { $0["kind"] as? String == "effectEnd" && $0["effect"] as? Int == 4 })
    XCTAssertEqual(failed["error"] as? String, "TestFailure(message: \"offline\")")

    let activity = try XCTUnwrap(records.first { $0["kind"] as? String == "activity" })
    XCTAssertEqual(activity["payload"] as? String, ".announced(3)")
    XCTAssertEqual(activity["origin"] as? String, ".loaded([Row(id: 1, isRead: false), Row(id: 2, isRead: false), Row(id: 3, isRead: false)])")
    XCTAssertEqual(records.last?["kind"] as? String, "end")
  }

  func testReplayingATraceReproducesTheFinalState() async throws {
    let url = temporaryTraceURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try await runTracedSession(to: url)

    let fresh = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature(gate: Gate()))
    try fresh.replay(Recording(trace: url))
    XCTAssertEqual(fresh.state.current, store.state.current)
    XCTAssertEqual(fresh.state.rows[id: 2]?.isRead, true)
    XCTAssertEqual(fresh.effectsInFlight, 0, "a replay runs no effect")
  }

  func testAnUnfinishedLastLineIsSkippedAndADamagedOneRefused() async throws {
    let store = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature(gate: Gate()))
    let url = temporaryTraceURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let trace = try Trace(store, writingTo: url)
    store.send(.markRead(id: 1))
    store.send(.failed("a"))
    store.send(.failed("b"))
    try await trace.finish()
    var text = try String(contentsOf: url, encoding: .utf8)
    // Cut inside the last action's line, as a crash while writing would.
    let lines = text.split(separator: "\n")
    text = lines.dropLast(2).joined(separator: "\n") + "\n" + lines[lines.count - 2].prefix(25)
    try text.write(to: url, atomically: true, encoding: .utf8)
    let recording = try Recording<InboxFeature.Action, InboxFeature.State>(trace: url)
    XCTAssertEqual(recording.messages, [.markRead(id: 1), .failed("a")])

    try (lines[0] + "\nnot json\n" + lines[1] + "\n").write(to: url, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try Recording<InboxFeature.Action, InboxFeature.State>(trace: url)) {
      XCTAssertEqual($0 as? TraceError, .damagedLine(path: url.path, line: 2))
    }
    try "{\"kind\":\"action\"}\n".write(to: url, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try Recording<InboxFeature.Action, InboxFeature.State>(trace: url)) {
      XCTAssertEqual($0 as? TraceError, .notATrace(path: url.path))
    }
  }

  func testAFullBufferDropsTheOldestEventsAndSaysSo() async throws {
    let url = temporaryTraceURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let header = Data("{\"kind\":\"header\",\"format\":\"verge-trace\",\"version\":1}\n".utf8)
    let file = try TraceFile(url: url, header: header, maximumSize: 1 << 20)
    let writer = TraceWriter(file: file, options: TraceOptions(bufferCapacity: 16))
    // The writer is held busy while 100 events arrive.
    let busy = DispatchSemaphore(value: 0)
    let blocked = DispatchSemaphore(value: 0)
    writer.queue.async {
      blocked.signal()
      busy.wait()
    }
    blocked.wait()
    for number in 1...100 {
      writer.enqueue { $0.kind = "action"; $0.name = "n\(number)" }
    }
    busy.signal()
    _ = await writer.close()
    let records = try traceRecords(url)
    XCTAssertEqual(records[1]["kind"] as? String, "dropped")
    XCTAssertEqual(records[1]["count"] as? Int, 84)
    XCTAssertEqual(records[1]["reason"] as? String, "buffer")
    let names = records.compactMap { $0["name"] as? String }
    XCTAssertEqual(names, (85...100).map { "n\($0)" }, "the newest 16 are kept")
    XCTAssertEqual(records.last?["count"] as? Int, 100, "the end record counts every event")
  }

  func testTheFileStaysUnderItsCapKeepingTheNewestEvents() async throws {
    let store = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature(gate: Gate()))
    let url = temporaryTraceURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let cap = 64 << 10
    let trace = try Trace(store, writingTo: url, options: TraceOptions(maximumFileSize: cap))
    let total = 2_000
    for number in 1...total {
      store.send(.failed(String(repeating: "x", count: 50) + "\(number)"))
      if number.isMultiple(of: 100) { await trace.flush() }
    }
    try await trace.finish()
    let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    XCTAssertLessThanOrEqual(size, cap)
    let records = try traceRecords(url)
    XCTAssertEqual(records.first?["kind"] as? String, "header")
    XCTAssertEqual(records[1]["kind"] as? String, "dropped")
    XCTAssertEqual(records[1]["reason"] as? String, "file size")
    let actions = records.filter { $0["kind"] as? String == "action" }
    let dropped = records.filter { $0["kind"] as? String == "dropped" }.compactMap { $0["count"] as? Int }.reduce(0, +)
    XCTAssertEqual(actions.count + dropped, total, "every event is written or counted as dropped")
    XCTAssertEqual(actions.last?["seq"] as? Int, total, "the newest events are kept")
    XCTAssertThrowsError(try Recording<InboxFeature.Action, InboxFeature.State>(trace: url)) {
      XCTAssertEqual($0 as? TraceError, .incomplete(dropped: dropped))
    }
  }

  func testACoreStoreTraceRecordsCommitsAndActivities() async throws {
    struct Counter: Equatable, Sendable { var count = 0; var title = "" }
    let store = Store<Counter, String>(initialState: Counter())
    let url = temporaryTraceURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let trace = try Trace(store, writingTo: url)
    store.commit("increment") { $0.count += 1 }
    store.send("hello")
    try await trace.finish()
    store.commit { $0.count += 1 }  // after finish: not traced
    let records = try traceRecords(url)
    XCTAssertEqual(records.map { $0["kind"] as? String }, ["header", "commit", "activity", "end"])
    XCTAssertEqual(records[1]["name"] as? String, "increment")
    XCTAssertEqual(records[1]["diff"] as? [[String: String]], [["path": "count", "before": "0", "after": "1"]])
    XCTAssertEqual(records[1]["state"] as? [String], ["count: 1", "title: \"\""])
    XCTAssertTrue((records[1]["location"] as? String)?.hasPrefix("VergeNeueTests/TraceTests.swift:") == true)
    XCTAssertEqual(records[2]["payload"] as? String, "\"hello\"")
    XCTAssertEqual(store.state.count, 2)
  }

  func testBadOptionsAndPathsAreRefused() {
    let store = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature(gate: Gate()))
    XCTAssertThrowsError(try Trace(store, writingTo: temporaryTraceURL(), options: TraceOptions(bufferCapacity: 1))) {
      XCTAssertEqual($0 as? TraceError, .invalidOption("bufferCapacity 1 is below 16"))
    }
    let nowhere = URL(fileURLWithPath: "/nonexistent-directory/trace.jsonl")
    XCTAssertThrowsError(try Trace(store, writingTo: nowhere)) {
      guard case .file(let path, _) = $0 as? TraceError else { return XCTFail("\($0)") }
      XCTAssertEqual(path, nowhere.path)
    }
    XCTAssertEqual(store.effectsInFlight, 0)
  }

  func testThePageEmbedsTheTraceSoThatNothingInItEndsTheScript() async throws {
    let store = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature(gate: Gate()))
    let url = temporaryTraceURL()
    let page = url.deletingPathExtension().appendingPathExtension("html")
    defer {
      try? FileManager.default.removeItem(at: url)
      try? FileManager.default.removeItem(at: page)
    }
    let trace = try Trace(store, writingTo: url)
    store.send(.failed("</script><b>"))
    try await trace.finish()
    try TraceViewer.writeHTML(trace: url, to: page)
    let html = try String(contentsOf: page, encoding: .utf8)
    XCTAssertEqual(html.components(separatedBy: "</script>").count, TraceViewer.html(embedding: nil).components(separatedBy: "</script>").count)
    XCTAssertTrue(html.contains(#"\u003c/script>\u003cb>"#))
    XCTAssertFalse(html.contains("http://") || html.contains("https://"), "the page loads nothing")

    try "plain text\n".write(to: url, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try TraceViewer.writeHTML(trace: url, to: page)) {
      XCTAssertEqual($0 as? TraceError, .notATrace(path: url.path))
    }
  }
}
