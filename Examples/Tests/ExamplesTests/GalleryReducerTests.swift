import VergeORM
import VergeTesting
import XCTest
@testable import comments

/// The comments example's `GalleryReducer`, asserted through
/// `TestStore`: every mutation a refresh or a post commits, by name
/// and with its exact state change, against the simulated API.
final class GalleryReducerTests: XCTestCase {
  private let you = Author.EntityID("you")

  private func makeStore(
    initialState: GalleryState = GalleryState(),
    failurePercent: Int = 0,
    latency: @escaping comments.Latency = {},
    reporter: TestFailureReporter = .xcTest
  ) -> TestStore<GalleryReducer> {
    let api = FakePhotoAPI(seed: 1, failurePercent: failurePercent, latency: latency)
    return TestStore(
      initialState: initialState, reducer: GalleryReducer(api: api, me: you), reporter: reporter)
  }

  /// The sample gallery written out by hand, as the server sends it.
  private func sampleDatabase() throws -> GalleryDatabase {
    let photos = [
      Photo(rawID: "p1", title: "Harbour at dawn", authorID: .init("ana")),
      Photo(rawID: "p2", title: "Rain on the tram", authorID: .init("bo")),
      Photo(rawID: "p3", title: "Lanterns", authorID: .init("chen")),
    ]
    let comments = [
      Comment(rawID: "c1", photoID: .init("p1"), authorID: .init("bo"), text: "That light!"),
      Comment(rawID: "c2", photoID: .init("p1"), authorID: .init("chen"), text: "Which harbour is it?"),
      Comment(rawID: "c3", photoID: .init("p2"), authorID: .init("ana"), text: "Love the reflections."),
    ]
    var database = GalleryDatabase()
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert([
        Author(rawID: "ana", name: "Ana"), Author(rawID: "bo", name: "Bo"), Author(rawID: "chen", name: "Chen"),
      ])
      context.entities.photo.insert(photos)
      for photo in photos { try context.indexes.allPhotos.append(photo.entityID) }
      context.entities.comment.insert(comments)
      for comment in comments { try context.indexes.commentsByPhoto.append(comment.entityID, to: comment.photoID) }
    }
    return database
  }

  private func loadedState() throws -> GalleryState {
    GalleryState(database: try sampleDatabase(), isLoading: false, lastError: nil)
  }

  // MARK: - refresh()

  func testRefreshMarksLoadingThenReplacesTheDatabase() async throws {
    let gate = DelayGate()
    let store = makeStore(latency: gate.delay)
    let expected = try sampleDatabase()
    let refresh = store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    XCTAssertEqual(store.state.database.entities.photo.count, 0, "nothing is loaded while the server waits")
    gate.open()
    await store.receive("replaceAll(with:)") {
      $0.isLoading = false
      $0.database = expected
    }
    let count = try await refresh.value
    XCTAssertEqual(count, 3)
    await store.finish()
    XCTAssertEqual(store.state.database.indexes.allPhotos.map(\.raw), ["p1", "p2", "p3"])
    XCTAssertEqual(store.state.database.indexes.commentsByPhoto.ids(in: .init("p1")).map(\.raw), ["c1", "c2"])
  }

  func testRefreshClearsAnEarlierError() async throws {
    var state = try loadedState()
    state.lastError = "server unavailable during post; try again"
    let store = makeStore(initialState: state)
    store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    // The same content again: only the flags change.
    await store.receive("replaceAll(with:)") {
      $0.isLoading = false
      $0.lastError = nil
    }
    await store.finish()
  }

  func testAFailingRefreshShowsTheErrorAndLeavesTheDataUntouched() async throws {
    let store = makeStore(initialState: try loadedState(), failurePercent: 100)
    let refresh = store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    await store.receive("failed(_:)") {  // exhaustive: a changed database fails here
      $0.isLoading = false
      $0.lastError = "server unavailable during refresh; try again"
    }
    do {
      _ = try await refresh.value
      XCTFail("a 100% failure rate must fail the refresh")
    } catch {
      XCTAssertEqual(error as? APIError, .unavailable(request: "refresh"))
    }
    await store.finish()
    XCTAssertEqual(store.state.database, try sampleDatabase())
  }

  func testACancelledRefreshCommitsNothingAfterSetLoading() async throws {
    let gate = DelayGate()
    let store = makeStore(initialState: try loadedState(), latency: gate.delay)
    let refresh = store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    refresh.cancel()
    gate.open()
    do {
      _ = try await refresh.value
      XCTFail("a cancelled refresh must throw")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    await store.finish()  // fails if replaceAll or failed was committed
    // The flag stays set: in the app, the refresh that cancelled this one clears it.
    XCTAssertEqual(store.state, GalleryState(database: try sampleDatabase(), isLoading: true, lastError: nil))
  }

  func testInconsistentServerDataIsRefusedAndLeavesTheDataUntouched() throws {
    var state = try loadedState()
    state.isLoading = true
    let store = makeStore(initialState: state)
    var payload = FakePhotoAPI.sample
    payload.photos.append(payload.photos[0])  // the same photo twice
    store.commit({ $0.replaceAll(with: payload) }) {
      $0.isLoading = false
      $0.lastError = "the server sent inconsistent data: Photo(p1) is already in index 'allPhotos'."
    }
  }

  // MARK: - postComment(_:on:)

  func testPostCommentInsertsTheCommentAndSendsTheActivity() async throws {
    let store = makeStore(initialState: try loadedState())
    let activities = NoticeList()
    let subscription = store.store.sinkActivity { activities.append($0) }
    defer { subscription.cancel() }
    let expected = Comment(rawID: "c101", photoID: .init("p3"), authorID: you, text: "Lovely")
    let post = store.dispatch { $0.postComment("  Lovely  ", on: .init("p3")) }
    await store.receive("insert(_:)") {
      try $0.database.performBatchUpdates { (context) throws(DatabaseError) in
        context.entities.comment.insert(expected)
        try context.indexes.commentsByPhoto.append(expected.entityID, to: expected.photoID)
      }
    }
    let comment = try await post.value
    XCTAssertEqual(comment, expected)
    await store.receiveActivity(.commentPosted(.init("c101"), on: .init("p3")))
    await store.finish()
    XCTAssertEqual(activities.all, [.commentPosted(.init("c101"), on: .init("p3"))])
  }

  func testAnEmptyCommentIsRefusedWithAClearErrorAndNoActivity() async throws {
    let store = makeStore(initialState: try loadedState())
    let activities = NoticeList()
    let subscription = store.store.sinkActivity { activities.append($0) }
    defer { subscription.cancel() }
    let post = store.dispatch { $0.postComment("   ", on: .init("p1")) }
    await store.receive("failed(_:)") { $0.lastError = "comment refused: the text is empty" }
    do {
      _ = try await post.value
      XCTFail("empty text must be refused")
    } catch {
      XCTAssertEqual(error as? APIError, .invalidComment("the text is empty"))
    }
    await store.finish()
    XCTAssertEqual(activities.all, [])
  }

  func testACommentOnAMissingPhotoIsRefusedAndChangesNoData() async throws {
    let store = makeStore(initialState: try loadedState())
    let post = store.dispatch { $0.postComment("Hello", on: .init("p9")) }
    await store.receive("failed(_:)") { $0.lastError = "photo p9 not found on the server" }
    do {
      _ = try await post.value
      XCTFail("a missing photo must be refused")
    } catch {
      XCTAssertEqual(error as? APIError, .notFound("photo p9"))
    }
    await store.finish()
  }

  // MARK: - The assertions can fail

  func testADatabaseChangeLeftOutOfTheExpectationIsReported() async throws {
    let capture = FailureCapture()
    let store = makeStore(reporter: capture.reporter)
    store.dispatch { $0.refresh() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    await store.receive("replaceAll(with:)") { $0.isLoading = false }  // the new database is not described
    await store.finish()
    XCTAssertEqual(capture.all.count, 1, "\(capture.all)")
    XCTAssertTrue(capture.all.first?.hasPrefix("receive(\"replaceAll(with:)\")") ?? false, "\(capture.all)")
  }
}
