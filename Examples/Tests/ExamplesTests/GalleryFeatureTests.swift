import Verge
import VergeORM
import VergeTesting
import XCTest
@testable import comments

/// The comments example's `GalleryFeature` with its photo features,
/// asserted through `TestStore`: every action a refresh, a post or a delete
/// reduces, with its exact state change, against the simulated API.
final class GalleryFeatureTests: XCTestCase {
  private let you = Author.EntityID("you")

  private func makeStore(
    initialState: GalleryState = GalleryState(),
    failurePercent: Int = 0,
    latency: @escaping comments.Latency = {},
    reporter: TestFailureReporter = .xcTest
  ) -> TestStore<Composed<GalleryFeature>> {
    let api = FakePhotoAPI(seed: 1, failurePercent: failurePercent, latency: latency)
    return TestStore(
      initialState: initialState, reducer: GalleryFeature.composed(me: you),
      withDependencies: { $0.photoAPI = api }, reporter: reporter)
  }

  /// The sample gallery written out by hand, as the server sends it: the
  /// photos in rows with their comment IDs, the authors and comments in the
  /// database.
  private func loadedState() -> GalleryState {
    let comments = [
      Comment(rawID: "c1", photoID: .init("p1"), authorID: .init("bo"), text: "That light!"),
      Comment(rawID: "c2", photoID: .init("p1"), authorID: .init("chen"), text: "Which harbour is it?"),
      Comment(rawID: "c3", photoID: .init("p2"), authorID: .init("ana"), text: "Love the reflections."),
    ]
    var database = GalleryDatabase()
    database.performBatchUpdates { context in
      context.entities.author.insert([
        Author(rawID: "ana", name: "Ana"), Author(rawID: "bo", name: "Bo"), Author(rawID: "chen", name: "Chen"),
      ])
      context.entities.comment.insert(comments)
    }
    let photos: IdentifiedArrayOf<PhotoFeature.State> = [
      .init(photo: Photo(rawID: "p1", title: "Harbour at dawn", authorID: .init("ana")), commentIDs: [.init("c1"), .init("c2")]),
      .init(photo: Photo(rawID: "p2", title: "Rain on the tram", authorID: .init("bo")), commentIDs: [.init("c3")]),
      .init(photo: Photo(rawID: "p3", title: "Lanterns", authorID: .init("chen"))),
    ]
    return GalleryState(photos: photos, database: database, isLoading: false, lastError: nil)
  }

  // MARK: - refresh

  func testRefreshMarksLoadingThenReplacesTheDatabase() async throws {
    let gate = DelayGate()
    let store = makeStore(latency: gate.delay)
    let expected = loadedState()
    await store.send(.refresh) { $0.isLoading = true }
    XCTAssertTrue(store.state.photos.isEmpty, "nothing is loaded while the server waits")
    gate.open()
    await store.receive(.loaded(FakePhotoAPI.sample)) {
      $0.isLoading = false
      $0.photos = expected.photos
      $0.database = expected.database
    }
    await store.finish()
    XCTAssertEqual(store.state.photos.ids.map(\.raw), ["p1", "p2", "p3"])
    XCTAssertEqual(store.state.photos.map(\.commentIDs.count), [2, 1, 0], "a row per photo with its comments")
  }

  func testTheServerWaitsOnTheClockTheTestGivesTheStore() async throws {
    // The program's latency (`clockLatency`) with the store's clock swapped
    // for a test clock: the refresh waits until the test advances it.
    let clock = TestClock()
    let api = FakePhotoAPI(seed: 1, failurePercent: 0, latency: clockLatency(.milliseconds(300)))
    let store = TestStore(
      initialState: GalleryState(), reducer: GalleryFeature.composed(me: you),
      withDependencies: {
        $0.photoAPI = api
        $0.clock = clock
      }, reporter: .xcTest)
    let expected = loadedState()
    await store.send(.refresh) { $0.isLoading = true }
    await clock.waitForSleepers()
    clock.advance(by: .milliseconds(299))
    XCTAssertEqual(clock.sleeperCount, 1, "still waiting 1 ms before the answer")
    clock.advance(by: .milliseconds(1))
    await store.receive(.loaded(FakePhotoAPI.sample)) {
      $0.isLoading = false
      $0.photos = expected.photos
      $0.database = expected.database
    }
    await store.finish()
  }

  func testAStoreGetsATestServerByDefault() async throws {
    // Without an override, a test's store gets the key's test value: a
    // fresh sample gallery that answers at once.
    let store = TestStore(initialState: GalleryState(), reducer: GalleryFeature.composed(me: you), reporter: .xcTest)
    let expected = loadedState()
    await store.send(.refresh) { $0.isLoading = true }
    await store.receive(.loaded(FakePhotoAPI.sample)) {
      $0.isLoading = false
      $0.photos = expected.photos
      $0.database = expected.database
    }
    await store.finish()
  }

  func testRefreshClearsAnEarlierError() async throws {
    var state = loadedState()
    state.lastError = "server unavailable during post; try again"
    let store = makeStore(initialState: state)
    await store.send(.refresh) {
      $0.isLoading = true
      $0.lastError = nil
    }
    // The same content again: only the flag changes.
    await store.receive(.loaded(FakePhotoAPI.sample)) { $0.isLoading = false }
    await store.finish()
  }

  func testAFailingRefreshShowsTheErrorAndLeavesTheDataUntouched() async throws {
    let store = makeStore(initialState: loadedState(), failurePercent: 100)
    await store.send(.refresh) { $0.isLoading = true }
    await store.receive(.refreshFailed("server unavailable during refresh; try again")) {  // exhaustive: a changed database fails here
      $0.isLoading = false
      $0.lastError = "server unavailable during refresh; try again"
    }
    await store.finish()
    XCTAssertEqual(store.state.photos, loadedState().photos)
    XCTAssertEqual(store.state.database, loadedState().database)
  }

  func testASecondRefreshCancelsTheFirst() async throws {
    let gate = DelayGate()
    let store = makeStore(initialState: loadedState(), latency: gate.delay)
    await store.send(.refresh) { $0.isLoading = true }
    await store.send(.refresh)
    gate.open()
    await store.receive(.loaded(FakePhotoAPI.sample)) { $0.isLoading = false }  // once: the first was cancelled
    await store.finish()
  }

  func testInconsistentServerDataIsRefusedAndLeavesTheDataUntouched() async throws {
    var state = loadedState()
    state.isLoading = true
    let store = makeStore(initialState: state)
    var payload = FakePhotoAPI.sample
    payload.photos.append(payload.photos[0])  // the same photo twice
    await store.send(.loaded(payload)) {
      $0.isLoading = false
      $0.lastError = "the server sent inconsistent data: photo p1 twice"
    }
  }

  func testACommentOnAPhotoNotSentIsRefusedAndLeavesTheDataUntouched() async throws {
    var state = loadedState()
    state.isLoading = true
    let store = makeStore(initialState: state)
    var payload = FakePhotoAPI.sample
    payload.comments.append(Comment(rawID: "c9", photoID: .init("p9"), authorID: .init("bo"), text: "Lost"))
    await store.send(.loaded(payload)) {
      $0.isLoading = false
      $0.lastError = "the server sent inconsistent data: comment c9 on photo p9, which it did not send"
    }
  }

  // MARK: - A photo's feature

  func testAPostedCommentIsStoredByTheGalleryWhichAnnouncesIt() async throws {
    let store = makeStore(initialState: loadedState())
    let expected = Comment(rawID: "c101", photoID: .init("p3"), authorID: you, text: "Lovely")
    await store.send(.photo(id: .init("p3"), action: .post("  Lovely  ")))
    await store.receive(.photo(id: .init("p3"), action: .posted(expected))) {
      $0.photos[id: .init("p3")]?.commentIDs.append(expected.entityID)
      $0.database.performBatchUpdates { context in context.entities.comment.insert(expected) }
    }
    await store.receiveActivity(.commentPosted(.init("c101"), on: .init("p3")))
    await store.finish()
  }

  func testAnEmptyCommentIsRefusedWithAClearErrorAndNoActivity() async throws {
    let store = makeStore(initialState: loadedState())
    await store.send(.photo(id: .init("p1"), action: .post("   ")))
    await store.receive(.photo(id: .init("p1"), action: .failed("comment refused: the text is empty"))) {
      $0.lastError = "comment refused: the text is empty"
    }
    await store.finish()  // an activity left unreceived would fail here
  }

  func testAnActionForAMissingPhotoIsIgnored() async throws {
    let store = makeStore(initialState: loadedState())
    await store.send(.photo(id: .init("p9"), action: .post("Hello")))
    await store.finish()  // no effect ran, nothing changed
  }

  func testDeletingACommentRemovesItAndABadPositionIsRefused() async throws {
    let store = makeStore(initialState: loadedState())
    await store.send(.photo(id: .init("p1"), action: .delete(position: 1)))
    await store.receive(.photo(id: .init("p1"), action: .deleted(.init("c1")))) {
      $0.photos[id: .init("p1")]?.commentIDs = [.init("c2")]
      $0.database.performBatchUpdates { context in _ = context.entities.comment.delete(.init("c1")) }
    }
    XCTAssertEqual(store.state.photos[0].commentIDs.map(\.raw), ["c2"])
    await store.send(.photo(id: .init("p1"), action: .delete(position: 5)))
    await store.receive(.photo(id: .init("p1"), action: .failed("comment 5 of this photo not found on the server"))) {
      $0.lastError = "comment 5 of this photo not found on the server"
    }
    await store.finish()
  }

  // MARK: - The assertions can fail

  func testADatabaseChangeLeftOutOfTheExpectationIsReported() async throws {
    let capture = FailureCapture()
    let store = makeStore(reporter: capture.reporter)
    await store.send(.refresh) { $0.isLoading = true }
    await store.receive(.loaded(FakePhotoAPI.sample)) { $0.isLoading = false }  // the new database is not described
    await store.finish()
    XCTAssertEqual(capture.all.count, 1, "\(capture.all)")
    XCTAssertTrue(capture.all.first?.hasPrefix("receive(") ?? false, "\(capture.all)")
  }
}
