import ExampleTerminal
import Foundation
import Verge
import VergeORM

/// `--state-file PATH`: the gallery's photos (with their comment IDs),
/// authors and comments kept in a file between runs.
///
/// `GalleryState.saved` is persisted from the session's store by key path,
/// through the action store's core store: restored now, then written
/// shortly after each change, and at once by ``finish()``. Whether a refresh is running
/// and the last error are not saved.
///
/// The simulated server keeps nothing between runs, so when a gallery is
/// restored the server starts from it, as a real server would still hold
/// the comments posted last time.
@MainActor
final class GalleryStateFile {
  /// The schema version of the file; raise it when the entities change.
  /// Version 1 kept the photos in the database; it is refused.
  static let version = 2

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
  ///   - session: The session whose gallery is kept; nothing has changed it yet.
  ///   - api: The session's simulated server, given the restored gallery.
  /// - Throws: `StateFileProblem` when the file cannot be used at all (its
  ///   directory does not exist, something other than a file is there, it
  ///   is unreadable, or another `comments` is using it).
  init(path: String, session: GallerySession, api: FakePhotoAPI) throws(StateFileProblem) {
    url = try StateFileProblem.url(of: path, program: "comments")
    do {
      persistence = try session.store.persist(\.saved, to: url, version: Self.version)
    } catch {
      throw StateFileProblem(error, path: path)
    }
    outcome = persistence.restoreOutcome
    let restored = session.store.state.saved
    if !restored.photos.isEmpty {
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
  /// What the server sends for this gallery: the photos in their order,
  /// every author, and each photo's comments in their order.
  ///
  /// - Parameter gallery: The saved gallery.
  init(_ gallery: SavedGallery) {
    let database = gallery.database
    self.init(
      photos: gallery.photos.map(\.photo),
      authors: database.entities.author.all().sorted { $0.rawID < $1.rawID },
      comments: gallery.photos.flatMap { database.comments($0.commentIDs) })
  }
}
