import ExampleTerminal
import Verge

/// Waits for the simulated network; injected so tests never sleep for real.
typealias Latency = @Sendable () async throws -> Void

/// A latency of `duration` on the `clock` dependency of the store whose
/// effect makes the request: a program waits on the continuous clock, a
/// test on the `TestClock` it gives the store (or the one a test process
/// gets by default), which it advances.
///
/// - Parameter duration: How long each request takes.
/// - Returns: The latency.
func clockLatency(_ duration: Duration) -> Latency {
  {
    @Dependency(\.clock) var clock
    try await clock.sleep(for: duration)
  }
}

/// The simulated server as a dependency: features read it with
/// `@Dependency(\.photoAPI)`, the program and the tests give the store
/// theirs (`withDependencies: { $0.photoAPI = api }`).
enum PhotoAPIKey: DependencyKey {
  /// The sample gallery with 300 ms requests on the store's clock and no
  /// failures; the program gives its own, made from its options.
  static var liveValue: FakePhotoAPI {
    FakePhotoAPI(seed: 1, failurePercent: 0, latency: clockLatency(.milliseconds(300)))
  }

  /// A fresh sample gallery per store, answering at once, never failing.
  static var testValue: FakePhotoAPI {
    FakePhotoAPI(seed: 1, failurePercent: 0, latency: {})
  }
}

extension DependencyValues {
  /// The simulated photo server.
  var photoAPI: FakePhotoAPI {
    get { self[PhotoAPIKey.self] }
    set { self[PhotoAPIKey.self] = newValue }
  }
}

/// What the server sends for a refresh.
struct GalleryPayload: Sendable, Equatable {
  var photos: [Photo]
  var authors: [Author]
  var comments: [Comment]
}

/// Why a simulated request failed.
enum APIError: Error, Equatable, CustomStringConvertible {
  /// The simulated server refused this request (seeded, so it reproduces).
  case unavailable(request: String)
  /// The comment or photo does not exist on the server.
  case notFound(String)
  /// The comment text was empty or too long.
  case invalidComment(String)

  var description: String {
    switch self {
    case .unavailable(let request): return "server unavailable during \(request); try again"
    case .notFound(let what): return "\(what) not found on the server"
    case .invalidComment(let reason): return "comment refused: \(reason)"
    }
  }
}

/// A simulated photo server with latency and seeded failures.
///
/// Every request waits `latency` (cancellable), then fails when the seeded
/// generator says so: the same seed and the same requests give the same
/// failures.
final class FakePhotoAPI: Sendable {
  /// What the server holds: looked up by ID, so a post or a delete costs
  /// the same with 3 photos as with 100,000.
  private struct Server {
    var photos: [Photo]
    var photoIDs: Set<Photo.EntityID>
    var authors: [Author]
    var comments: IdentifiedArrayOf<Comment>
    var random: RandomGenerator
    /// The number of the last comment: new ones are numbered after the
    /// highest `cN` the server holds, from c101 on.
    var nextCommentNumber: Int

    init(_ gallery: GalleryPayload, random: RandomGenerator) {
      nextCommentNumber = max(100, gallery.comments.compactMap { Int($0.rawID.dropFirst()) }.max() ?? 0)
      photos = gallery.photos
      photoIDs = Set(gallery.photos.map(\.entityID))
      authors = gallery.authors
      comments = IdentifiedArrayOf(uniqueElements: gallery.comments)
      self.random = random
    }

    var payload: GalleryPayload {
      GalleryPayload(photos: photos, authors: authors, comments: comments.elements)
    }
  }

  private let server: Locked<Server>
  private let latency: Latency
  /// The chance, from 0 to 100, that a request fails.
  let failurePercent: Int

  /// Creates the server with the sample gallery, or a larger one.
  ///
  /// - Parameters:
  ///   - seed: Seeds the failures.
  ///   - failurePercent: The chance (0...100) that a request fails.
  ///   - photoCount: How many photos the server holds (see `gallery(photoCount:)`).
  ///   - latency: The wait before each answer.
  init(seed: UInt64, failurePercent: Int, photoCount: Int = 3, latency: @escaping Latency) {
    server = Locked(Server(FakePhotoAPI.gallery(photoCount: photoCount), random: .seeded(seed)))
    self.failurePercent = min(max(failurePercent, 0), 100)
    self.latency = latency
  }

  /// Replaces what the server holds, as a server that kept its data since
  /// the last run would hold it; new comments are numbered after the
  /// highest `cN` in it.
  ///
  /// - Parameter gallery: The photos, authors and comments to serve.
  func replaceGallery(with gallery: GalleryPayload) {
    server.withLock { server in
      server = Server(gallery, random: server.random)
    }
  }

  /// Loads every photo, author and comment.
  ///
  /// - Throws: `APIError.unavailable`, or `CancellationError` when cancelled.
  func fetchGallery() async throws -> GalleryPayload {
    try await respond(to: "refresh") { $0.payload }
  }

  /// Posts a comment.
  ///
  /// - Throws: `APIError`, or `CancellationError` when cancelled.
  func postComment(_ text: String, on photoID: Photo.EntityID, by authorID: Author.EntityID) async throws -> Comment {
    let text = text.trimmingSpaces()
    guard !text.isEmpty else { throw APIError.invalidComment("the text is empty") }
    guard text.count <= 120 else { throw APIError.invalidComment("longer than 120 characters") }
    return try await respond(to: "post") { server throws(APIError) in
      guard server.photoIDs.contains(photoID) else {
        throw .notFound("photo \(photoID.raw)")
      }
      server.nextCommentNumber += 1
      let comment = Comment(rawID: "c\(server.nextCommentNumber)", photoID: photoID, authorID: authorID, text: text)
      _ = server.comments.append(comment)
      return comment
    }
  }

  /// Deletes a comment.
  ///
  /// - Throws: `APIError`, or `CancellationError` when cancelled.
  func deleteComment(_ id: Comment.EntityID) async throws {
    try await respond(to: "delete") { server throws(APIError) in
      guard server.comments.remove(id: id) != nil else {
        throw .notFound("comment \(id.raw)")
      }
    }
  }

  /// Waits, draws the failure dice, then applies `body` to the server.
  private func respond<Result: Sendable>(
    to request: String,
    _ body: (inout Server) throws(APIError) -> Result
  ) async throws -> Result {
    try await latency()
    try Task.checkCancellation()
    return try server.withLock { server throws(APIError) -> Result in
      if Int(server.random { $0.next() } % 100) < failurePercent { throw .unavailable(request: request) }
      return try body(&server)
    }
  }

  /// The sample gallery the server starts with.
  static let sample: GalleryPayload = {
    let ana = Author(rawID: "ana", name: "Ana")
    let bo = Author(rawID: "bo", name: "Bo")
    let chen = Author(rawID: "chen", name: "Chen")
    let photos = [
      Photo(rawID: "p1", title: "Harbour at dawn", authorID: ana.entityID),
      Photo(rawID: "p2", title: "Rain on the tram", authorID: bo.entityID),
      Photo(rawID: "p3", title: "Lanterns", authorID: chen.entityID),
    ]
    let comments = [
      Comment(rawID: "c1", photoID: photos[0].entityID, authorID: bo.entityID, text: "That light!"),
      Comment(rawID: "c2", photoID: photos[0].entityID, authorID: chen.entityID, text: "Which harbour is it?"),
      Comment(rawID: "c3", photoID: photos[1].entityID, authorID: ana.entityID, text: "Love the reflections."),
    ]
    return GalleryPayload(photos: photos, authors: [ana, bo, chen], comments: comments)
  }()

  /// A gallery of `photoCount` photos: the sample's first ones, then
  /// "Photo 4", "Photo 5", ... by the sample's authors in turn, every tenth
  /// with one comment.
  ///
  /// - Parameter photoCount: How many photos; 3 gives the sample.
  static func gallery(photoCount: Int) -> GalleryPayload {
    let sample = FakePhotoAPI.sample
    var gallery = GalleryPayload(
      photos: Array(sample.photos.prefix(photoCount)), authors: sample.authors, comments: [])
    let kept = Set(gallery.photos.map(\.entityID))
    gallery.comments = sample.comments.filter { kept.contains($0.photoID) }
    guard photoCount > sample.photos.count else { return gallery }
    gallery.photos.reserveCapacity(photoCount)
    for number in (sample.photos.count + 1)...photoCount {
      let author = sample.authors[number % sample.authors.count].entityID
      let photo = Photo(rawID: "p\(number)", title: "Photo \(number)", authorID: author)
      gallery.photos.append(photo)
      if number % 10 == 0 {
        gallery.comments.append(
          Comment(rawID: "c\(number)", photoID: photo.entityID, authorID: author, text: "Comment on photo \(number)"))
      }
    }
    return gallery
  }
}

extension String {
  /// The text without leading and trailing spaces.
  func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
