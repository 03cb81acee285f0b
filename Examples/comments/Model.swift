import Verge
import VergeORM

/// A photo in the gallery.
struct Photo: EntityType, Codable {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  var title: String
  let authorID: Author.EntityID
}

/// Someone who takes photos and writes comments.
struct Author: EntityType, Codable {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  var name: String
}

/// A comment on a photo; `Identifiable` by its entity ID, so the simulated
/// server keeps its comments in an `IdentifiedArrayOf<Comment>`.
struct Comment: EntityType, Codable, Identifiable {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  var id: EntityID { entityID }
  let rawID: String
  let photoID: Photo.EntityID
  let authorID: Author.EntityID
  var text: String
}

/// The authors and comments, normalized: each entity once, looked up by ID.
/// The photos, their order and each photo's comment IDs are in
/// `GalleryState.photos`.
struct GalleryDatabase: DatabaseType {
  struct Schema: EntitySchemaType {
    let author = Author.EntityTableKey()
    let comment = Comment.EntityTableKey()
  }

  struct Indexes: IndexesType {}

  var _backingStorage: BackingStorage = .init()
}

/// The app state: the photos in an identified array (one row per photo,
/// what `forEach` runs a `PhotoFeature` on), the authors and comments in
/// the database, and what the screen shows about loading.
///
/// Every command costs what it touches: a row is found by ID in O(log n),
/// and a commit that changes one row copies one path of the array, not the
/// 100,000 rows (`--photos 100000`).
struct GalleryState: Equatable, Sendable {
  /// The photos in order, each with its comments' IDs.
  var photos: IdentifiedArrayOf<PhotoFeature.State> = []
  /// The authors and comments.
  var database = GalleryDatabase()
  /// Whether a refresh is running.
  var isLoading = false
  /// The last error, shown to the user until the next success.
  var lastError: String?
}

/// One-off events for the user.
enum GalleryActivity: Sendable, Equatable {
  /// A comment was posted on a photo.
  case commentPosted(Comment.EntityID, on: Photo.EntityID)
}

/// What `--state-file` keeps: the photos with their comment IDs, and the
/// database of authors and comments.
struct SavedGallery: Codable, Sendable {
  var photos: IdentifiedArrayOf<PhotoFeature.State>
  var database: GalleryDatabase
}

extension GalleryState {
  /// The part of the state that is saved; setting it replaces the photos
  /// and the database.
  var saved: SavedGallery {
    get { SavedGallery(photos: photos, database: database) }
    set {
      photos = newValue.photos
      database = newValue.database
    }
  }
}
