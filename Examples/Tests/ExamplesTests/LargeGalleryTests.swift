import Verge
import XCTest
@testable import comments

/// `comments --photos 100000`: every command but `refresh` answers with
/// what it touches, as with the 3-photo sample: `list` shows one page, a
/// photo is opened by position and its row found by ID, and a post or a
/// delete changes that row alone.
@MainActor
final class LargeGalleryTests: XCTestCase {
  private func loadedSession(photos: Int) async -> GallerySession {
    let session = GallerySession(api: FakePhotoAPI(seed: 1, failurePercent: 0, photoCount: photos, latency: {}))
    await session.startRefresh().finish()
    return session
  }

  func testTheGeneratedGalleryHasTheSampleFirstAndACommentOnEveryTenthPhoto() {
    let gallery = FakePhotoAPI.gallery(photoCount: 25)
    XCTAssertEqual(gallery.photos.count, 25)
    XCTAssertEqual(Array(gallery.photos.prefix(3)), FakePhotoAPI.sample.photos)
    XCTAssertEqual(gallery.comments.map(\.rawID), ["c1", "c2", "c3", "c10", "c20"])
    XCTAssertEqual(FakePhotoAPI.gallery(photoCount: 3), FakePhotoAPI.sample)
    XCTAssertEqual(FakePhotoAPI.gallery(photoCount: 1).comments.map(\.rawID), ["c1", "c2"])
    XCTAssertTrue(FakePhotoAPI.gallery(photoCount: 0).photos.isEmpty)
  }

  func testListShowsOnePageWhateverTheNumberOfPhotos() async {
    let session = await loadedSession(photos: 100_000)
    let first = await session.perform(.list(page: 1))
    XCTAssertEqual(first.count, GallerySession.pageSize + 1, "a page and where the next one is")
    XCTAssertEqual(first.first, "1. Harbour at dawn by Ana - 2 comments")
    XCTAssertEqual(first.last, "photos 1-20 of 100000, page 1 of 5000; 'list 2' for more")
    let last = await session.perform(.list(page: 5000))
    XCTAssertEqual(last.first, "99981. Photo 99981 by Ana - 0 comments")
    XCTAssertEqual(last.dropLast().last, "100000. Photo 100000 by Bo - 1 comment")
    XCTAssertEqual(last.last, "photos 99981-100000 of 100000, page 5000 of 5000")
    let beyond = await session.perform(.list(page: 5001))
    XCTAssertEqual(beyond, ["error: no page 5001; the photos fill 5000 pages"])

    let small = await loadedSession(photos: 3)
    let all = await small.perform(.list(page: 1))
    XCTAssertEqual(all.count, 3, "one page needs no footer")
  }

  func testAPostAndADeleteOnTheLastOfAHundredThousandPhotosChangeItsRowAlone() async {
    let session = await loadedSession(photos: 100_000)
    let before = session.photos
    let opened = await session.perform(.open(100_000))
    XCTAssertEqual(opened, ["Photo 100000 by Bo - 1 comment", "  1. Bo: Comment on photo 100000"])
    let posted = await session.perform(.post("Hi"))
    XCTAssertEqual(
      posted,
      [
        "comment c100001 posted on p100000", "Photo 100000 by Bo - 2 comments",
        "  1. Bo: Comment on photo 100000", "  2. you: Hi",
      ])
    let deleted = await session.perform(.delete(1))
    XCTAssertEqual(deleted, ["deleted \"Comment on photo 100000\"", "Photo 100000 by Bo - 1 comment", "  1. you: Hi"])

    let after = session.photos
    XCTAssertEqual(after.count, 100_000)
    XCTAssertEqual(after.ids.last, before.ids.last)
    XCTAssertEqual(after[id: .init("p100000")]?.commentIDs.map(\.raw), ["c100001"])
    XCTAssertEqual(after[id: .init("p99990")], before[id: .init("p99990")])
    var expected = before
    expected[id: .init("p100000")]?.commentIDs = [.init("c100001")]
    XCTAssertEqual(after, expected, "no other row changed")
    XCTAssertEqual(session.store.state.database.entities.comment.count, 10_003)
  }
}
