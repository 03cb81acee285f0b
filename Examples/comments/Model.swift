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

/// A comment on a photo.
struct Comment: EntityType, Codable {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  let photoID: Photo.EntityID
  let authorID: Author.EntityID
  var text: String
}

/// The normalized gallery: each entity once, related by ID, with indexes
/// for the photo order and the comments of each photo.
struct GalleryDatabase: DatabaseType {
  struct Schema: EntitySchemaType {
    let photo = Photo.EntityTableKey()
    let author = Author.EntityTableKey()
    let comment = Comment.EntityTableKey()
  }

  struct Indexes: IndexesType {
    let allPhotos = IndexKey<OrderedIDIndex<Photo>>()
    let commentsByPhoto = IndexKey<GroupByEntityIndex<Photo, Comment>>()
  }

  var _backingStorage: BackingStorage = .init()
}

/// The app state: the database plus what the screen shows about loading.
struct GalleryState: Equatable, Sendable {
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
