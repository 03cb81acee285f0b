import VergeNeue
import VergeORM

/// The gallery: loading from the server, and one `PhotoFeature` per photo
/// whose reports it stores in the normalized database.
struct GalleryFeature: ActionReducer {
  typealias State = GalleryState
  typealias Activity = GalleryActivity

  enum Action: Sendable, Equatable {
    /// Loads everything; a refresh still running is cancelled.
    case refresh
    /// The server sent the gallery.
    case loaded(GalleryPayload)
    /// The refresh failed; the data stays as it was.
    case refreshFailed(String)
    /// An action of one photo's feature.
    case photo(id: Photo.EntityID, action: PhotoFeature.Action)
  }

  static let photoCase = ActionCase<Action, (id: Photo.EntityID, action: PhotoFeature.Action)>(
    { Action.photo(id: $0.id, action: $0.action) }
  ) {
    if case .photo(let id, let action) = $0 { (id, action) } else { nil }
  }

  /// The simulated server.
  let api: FakePhotoAPI

  /// The gallery with a `PhotoFeature` for each photo: what a store runs.
  static func composed(api: FakePhotoAPI, me: Author.EntityID) -> Composed<GalleryFeature> {
    GalleryFeature(api: api).forEach(\.photos, action: photoCase, element: PhotoFeature(api: api, me: me))
  }

  func reduce(into state: inout GalleryState, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .refresh:
      state.isLoading = true
      state.lastError = nil
      let api = api
      return .run { send in
        do {
          send(.loaded(try await api.fetchGallery()))
        } catch is CancellationError {
        } catch {
          send(.refreshFailed("\(error)"))
        }
      }
      .cancellable(id: "refresh", cancelInFlight: true)
    case .loaded(let payload):
      state.replaceAll(with: payload)
    case .refreshFailed(let message):
      state.lastError = message
      state.isLoading = false
    case .photo(_, .post), .photo(_, .delete):
      state.lastError = nil
    case .photo(let photoID, .posted(let comment)):   // the gallery reacts to a photo's "comment posted"
      state.insert(comment)
      return .activity(.commentPosted(comment.entityID, on: photoID))
    case .photo(_, .deleted(let commentID)):
      state.database.performBatchUpdates { context in
        _ = context.entities.comment.delete(commentID)
      }
    case .photo(_, .failed(let message)):
      state.lastError = message
    }
    return .none
  }
}

extension GalleryState {
  /// One `PhotoFeature.State` per photo, in order, read from the database:
  /// the photo features keep nothing of their own (what they do comes back
  /// as actions the gallery stores), so writing through it changes nothing.
  var photos: IdentifiedArrayOf<PhotoFeature.State> {
    get {
      IdentifiedArrayOf(
        uniqueElements: database.entities.photo.find(in: database.indexes.allPhotos).map { photo in
          PhotoFeature.State(id: photo.entityID, commentIDs: database.indexes.commentsByPhoto.ids(in: photo.entityID))
        })
    }
    set {}
  }

  /// Replaces the database with what the server sent, in one batch.
  mutating func replaceAll(with payload: GalleryPayload) {
    do {
      try database.performBatchUpdates { (context) throws(DatabaseError) in
        context.entities.comment.deleteAll()
        context.entities.photo.deleteAll()
        context.entities.author.deleteAll()
        context.indexes.allPhotos.removeAll()
        context.entities.author.insert(payload.authors)
        for photo in context.entities.photo.insert(payload.photos) {
          try context.indexes.allPhotos.append(photo.entityID)
        }
        for comment in context.entities.comment.insert(payload.comments) {
          try context.indexes.commentsByPhoto.append(comment.entityID, to: comment.photoID)
        }
      }
      lastError = nil
    } catch {
      lastError = "the server sent inconsistent data: \(error)"
    }
    isLoading = false
  }

  /// Stores one new comment.
  mutating func insert(_ comment: Comment) {
    do {
      try database.performBatchUpdates { (context) throws(DatabaseError) in
        context.entities.comment.insert(comment)
        try context.indexes.commentsByPhoto.append(comment.entityID, to: comment.photoID)
      }
      lastError = nil
    } catch {
      lastError = "could not store the comment: \(error)"
    }
  }
}

extension GalleryDatabase {
  /// A photo's comments, oldest first.
  func comments(of photoID: Photo.EntityID) -> [Comment] {
    entities.comment.find(in: indexes.commentsByPhoto.ids(in: photoID))
  }
}
