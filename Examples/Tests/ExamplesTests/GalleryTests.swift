import XCTest
import VergeNeue
import VergeORM
@testable import comments

/// The comments example's seeded API, derived counts, scoped store, session
/// and parsing, against the simulated API with no real latency. The
/// reducer's mutations themselves are asserted in `GalleryReducerTests`.
final class GalleryTests: XCTestCase {
  private func makeStore(failurePercent: Int = 0, latency: @escaping comments.Latency = {}) -> ReducerStore<GalleryReducer> {
    let api = FakePhotoAPI(seed: 1, failurePercent: failurePercent, latency: latency)
    return ReducerStore(initialState: GalleryState(), reducer: GalleryReducer(api: api, me: .init("you")))
  }

  func testSameSeedGivesSameFailures() async {
    func outcomes(seed: UInt64) async -> [Bool] {
      let api = FakePhotoAPI(seed: seed, failurePercent: 50, latency: {})
      var results: [Bool] = []
      for _ in 0..<20 { results.append((try? await api.fetchGallery()) != nil) }
      return results
    }
    let first = await outcomes(seed: 42)
    let second = await outcomes(seed: 42)
    XCTAssertEqual(first, second)
    XCTAssertTrue(first.contains(true) && first.contains(false), "50% should give both outcomes in 20 tries")
  }

  func testPostCommentInsertsIndexesAndSendsTheActivity() async throws {
    let store = makeStore()
    try await store.dispatch { $0.refresh() }
    let posted = Posted()
    let subscription = store.sinkActivity { posted.append($0) }
    let counts = store.derived(.map(\.database) { db in db.indexes.commentsByPhoto.ids(in: .init("p3")).count })
    XCTAssertEqual(counts.value, 0)
    let comment = try await store.dispatch { $0.postComment("  Lovely  ", on: .init("p3")) }
    XCTAssertEqual(comment.text, "Lovely")
    XCTAssertEqual(counts.value, 1)
    XCTAssertEqual(posted.all, [.commentPosted(comment.entityID, on: .init("p3"))])
    subscription.cancel()
  }

  func testScopedPhotoStoreDeletesFromTheParentDatabase() async throws {
    let store = makeStore()
    try await store.dispatch { $0.refresh() }
    let api = FakePhotoAPI(seed: 1, failurePercent: 0, latency: {})
    let photo = store.core.scope(\.database, reducer: PhotoReducer(photoID: .init("p1"), api: api))
    let deleted = try await photo.dispatch { $0.deleteComment(at: 1) }
    XCTAssertEqual(deleted.rawID, "c1")
    XCTAssertNil(store.state.database.entities.comment.find(by: .init("c1")))
    XCTAssertEqual(store.state.database.indexes.commentsByPhoto.ids(in: .init("p1")).map(\.raw), ["c2"])
    do {
      _ = try await photo.dispatch { $0.deleteComment(at: 5) }
      XCTFail("a missing position must be refused")
    } catch {
      XCTAssertEqual(error as? APIError, .notFound("comment 5 of this photo"))
    }
  }

  @MainActor
  func testSecondRefreshCancelsTheFirst() async throws {
    let gate = DelayGate()
    let api = FakePhotoAPI(seed: 1, failurePercent: 0, latency: { try await gate.delay() })
    let session = GallerySession(api: api)
    let first = session.startRefresh()
    let second = session.startRefresh()
    let firstResult = await first.result
    XCTAssertThrowsError(try firstResult.get()) { XCTAssertTrue($0 is CancellationError) }
    gate.open()
    try await second.value
    XCTAssertEqual(session.photos.count, 3)
    XCTAssertEqual(session.commentCounts.value[.init("p1")], 2)
  }

  @MainActor
  func testScriptedSessionOutput() async throws {
    let session = GallerySession(api: FakePhotoAPI(seed: 6, failurePercent: 20, latency: {}))
    let commands = try GalleryCommand.parse(script: "refresh; open 3; post Hi; close; delete 1")
    let lines = await CommentsShell.scriptLines(commands, in: session)
    XCTAssertEqual(
      lines,
      [
        "> refresh", "  3 photos, 3 comments",
        "> open 3", "  Lanterns by Chen - 0 comments",
        "> post Hi", "  comment c101 posted on p3", "  Lanterns by Chen - 1 comment", "    1. you: Hi",
        "> close", "  closed",
        "> delete 1", "  error: open a photo first",
      ])
  }

  func testParsingRefusesBadInput() {
    XCTAssertEqual(try GalleryCommand(parsing: "open 2"), .open(2))
    XCTAssertEqual(try GalleryCommand(parsing: "post  hello there "), .post("hello there"))
    XCTAssertThrowsError(try GalleryCommand(parsing: "open x")) {
      XCTAssertEqual($0 as? GalleryInputError, .needsNumber("open"))
    }
    XCTAssertThrowsError(try GalleryCommand(parsing: "post")) {
      XCTAssertEqual($0 as? GalleryInputError, .needsText)
    }
    XCTAssertThrowsError(try GalleryCommand.parse(script: "list; jump")) {
      XCTAssertEqual($0 as? GalleryInputError, .unknown("jump"))
    }
  }
}

/// Activities seen by a subscriber.
private final class Posted: Sendable {
  private let box = NoticeList()
  func append(_ activity: GalleryActivity) { box.append(activity) }
  var all: [GalleryActivity] { box.all }
}
