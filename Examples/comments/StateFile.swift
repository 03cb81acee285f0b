import Foundation
import Verge
import VergeORM

/// `--state-file PATH`: the gallery's database (photos, authors, comments)
/// kept in a file between runs.
///
/// The database is persisted from the session's store by key path, through
/// the action store's core store: restored now, then written shortly after
/// each change, and at once by ``finish()``. Whether a refresh is running
/// and the last error are not saved.
///
/// The simulated server keeps nothing between runs, so when a gallery is
/// restored the server starts from it, as a real server would still hold
/// the comments posted last time.
@MainActor
final class GalleryStateFile {
  /// The schema version of the file; raise it when the entities change.
  static let version = 1

  /// The state file.
  let url: URL
  /// What happened to the file when it was opened.
  let outcome: RestoreOutcome
  private let persistence: FilePersistence

  /// Opens the file and restores the session's database from it.
  ///
  /// A damaged file, one of a newer version, or one that does not decode is
  /// moved aside and the session keeps its empty database; ``refusal`` then
  /// says so.
  ///
  /// - Parameters:
  ///   - path: The file's path, relative to the current directory or absolute.
  ///   - session: The session whose database is kept; nothing has changed it yet.
  ///   - api: The session's simulated server, given the restored gallery.
  /// - Throws: `StateFileProblem` when the file cannot be used at all (its
  ///   directory does not exist, something other than a file is there, it
  ///   is unreadable, or another `comments` is using it).
  init(path: String, session: GallerySession, api: FakePhotoAPI) throws(StateFileProblem) {
    url = try StateFileProblem.url(of: path)
    do {
      persistence = try session.store.persist(\.database, to: url, version: Self.version)
    } catch {
      throw StateFileProblem(error, path: path)
    }
    outcome = persistence.restoreOutcome
    let restored = session.store.state.database
    if !restored.indexes.allPhotos.isEmpty {
      api.replaceGallery(with: GalleryPayload(restored))
    }
  }

  /// A sentence about a refused file, for standard error; `nil` otherwise.
  var refusal: String? {
    guard case .refused(let error, let movedAside) = outcome else { return nil }
    return "the state file \(url.path) was refused (\(error)); "
      + "it was moved to \(movedAside.path), and the gallery starts empty"
  }

  /// Writes what is not written yet and gives the file up, so that the next
  /// `comments` can open it; later changes are not saved.
  ///
  /// - Throws: `PersistenceError` when the write fails; the file keeps what
  ///   it held before.
  func finish() async throws(PersistenceError) {
    try await persistence.flush()  // waits for the disk without blocking a thread
    try persistence.close()  // nothing is left to write: it only releases the file
  }
}

extension GalleryPayload {
  /// What the server sends for this database: the photos in their order,
  /// every author, and each photo's comments in their order.
  ///
  /// - Parameter database: The gallery's database.
  init(_ database: GalleryDatabase) {
    let photos = database.entities.photo.find(in: database.indexes.allPhotos)
    self.init(
      photos: photos,
      authors: database.entities.author.all().sorted { $0.rawID < $1.rawID },
      comments: photos.flatMap { database.comments(of: $0.entityID) })
  }
}
