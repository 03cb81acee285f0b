import Foundation
import VergeNeue
import XCTest

// The snippets of the "Tracing a store" article, as written there.
final class TracingAStoreArticleTests: XCTestCase {
  func testTheArticlesSnippetsTraceReplayAndWriteThePage() async throws {
    let store = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature())
    let traceURL = temporaryTraceURL()
    let pageURL = traceURL.deletingPathExtension().appendingPathExtension("html")
    defer {
      try? FileManager.default.removeItem(at: traceURL)
      try? FileManager.default.removeItem(at: pageURL)
    }

    let trace = try Trace(store, writingTo: traceURL)
    store.send(.load(count: 3))
    // … the session …
    await store.waitUntilIdle()
    store.send(.markRead(id: 3))
    try await trace.finish()
    try TraceViewer.writeHTML(trace: traceURL, to: pageURL)

    let page = try String(contentsOf: pageURL, encoding: .utf8)
    XCTAssertTrue(page.contains("\"name\":\"markRead\""), "the page embeds the trace")

    let fresh = ActionStore(initialState: InboxFeature.State(), reducer: InboxFeature())
    try fresh.replay(Recording(trace: traceURL))
    XCTAssertEqual(fresh.state.current, store.state.current)
    XCTAssertEqual(fresh.state.rows.map(\.isRead), [false, false, true])
  }
}
