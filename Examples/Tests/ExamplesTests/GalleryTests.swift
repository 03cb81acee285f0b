import XCTest
import VergeNeue
import VergeORM
@testable import comments

/// The comments example's seeded API, derived counts, scoped store, session
/// and parsing, against the simulated API with no real latency. The
/// feature's actions themselves are asserted in `GalleryFeatureTests`.
final class GalleryTests: XCTestCase {
  private func makeStore(failurePercent: Int = 0, latency: @escaping comments.Latency = {}) -> ActionStore<Composed<GalleryFeature>> {
    let api = FakePhotoAPI(seed: 1, failurePercent: failurePercent, latency: latency)
    return ActionStore(
      initialState: GalleryState(), reducer: GalleryFeature.composed(me: .init("you")),
      withDependencies: { $0.photoAPI = api })
  }

  @MainActor
  func testTheHelpIsOneLinePerCommandIndentedAlike() async {
    let session = GallerySession(api: FakePhotoAPI(seed: 1, failurePercent: 0, latency: {}))
    let lines = await session.perform(.help)
    XCTAssertEqual(lines.count, 8)
    XCTAssertEqual(lines.first, "refresh (r)    load photos and comments (a second refresh cancels the first)")
    XCTAssertTrue(lines.allSatisfy { !$0.hasPrefix(" ") && !$0.contains("\n") }, "\(lines)")
    // --help shows the same lines, each indented by two spaces.
    XCTAssertTrue(CommentsOptions.usage.contains(lines.map { "  " + $0 }.joined(separator: "\n")))
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

  func testAPhotosPostedCommentIsStoredAndAnnouncedByTheGallery() async throws {
    let store = makeStore()
    await store.send(.refresh).finish()
    let posted = Posted()
    let subscription = store.sinkActivity { posted.append($0) }
    let counts = store.derived(.map { $0.photos[id: .init("p3")]?.commentIDs.count ?? 0 })
    XCTAssertEqual(counts.value, 0)
    let photo = store.scope(state: \.[photo: .init("p3")]) { GalleryFeature.Action.photo(id: .init("p3"), action: $0) }
    await photo.send(.post("  Lovely  ")).finish()
    XCTAssertEqual(counts.value, 1)
    XCTAssertEqual(photo.state.current?.commentIDs.map(\.raw), ["c101"])
    XCTAssertEqual(store.state.database.entities.comment.find(by: .init("c101"))?.text, "Lovely")
    XCTAssertEqual(posted.all, [.commentPosted(.init("c101"), on: .init("p3"))])
    subscription.cancel()
  }

  func testAPhotosScopedStoreDeletesFromTheRootDatabase() async throws {
    let store = makeStore()
    await store.send(.refresh).finish()
    let photo = store.scope(state: \.[photo: .init("p1")]) { GalleryFeature.Action.photo(id: .init("p1"), action: $0) }
    await photo.send(.delete(position: 1)).finish()
    XCTAssertNil(store.state.database.entities.comment.find(by: .init("c1")))
    XCTAssertEqual(store.state.photos[id: .init("p1")]?.commentIDs.map(\.raw), ["c2"])
    await photo.send(.delete(position: 5)).finish()
    XCTAssertEqual(store.state.lastError, "comment 5 of this photo not found on the server")
  }

  @MainActor
  func testSecondRefreshCancelsTheFirst() async throws {
    let gate = DelayGate()
    let api = FakePhotoAPI(seed: 1, failurePercent: 0, latency: { try await gate.delay() })
    let session = GallerySession(api: api)
    let first = session.startRefresh()
    let second = session.startRefresh()
    await first.finish()
    XCTAssertTrue(session.store.state.isLoading, "the first refresh ended without loading")
    gate.open()
    await second.finish()
    XCTAssertFalse(session.store.state.isLoading)
    XCTAssertEqual(session.photos.count, 3)
    XCTAssertEqual(session.photos[id: .init("p1")]?.commentIDs.count, 2)
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
