import Verge
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

  /// The simulated server: the store's (`withDependencies:`).
  @Dependency(\.photoAPI) var api

  /// The gallery with a `PhotoFeature` for each photo: what a store runs.
  /// The photos read the store's server too.
  static func composed(me: Author.EntityID) -> Composed<GalleryFeature> {
    GalleryFeature().forEach(\.photos, action: photoCase, element: PhotoFeature(me: me))
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
    case .photo(let photoID, .posted(let comment)):   // the photo added the ID to its row; the gallery stores the comment
      state.database.performBatchUpdates { context in
        context.entities.comment.insert(comment)
      }
      state.lastError = nil
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
  /// Replaces the photos and the database with what the server sent; data
  /// that does not fit together (a photo twice, a comment on a photo that
  /// is not there) is refused and changes nothing.
  ///
  /// - Complexity: O(n log n) for n photos and comments: the one place
  ///   that visits every photo.
  mutating func replaceAll(with payload: GalleryPayload) {
    isLoading = false
    var rows = IdentifiedArrayOf<PhotoFeature.State>()
    for photo in payload.photos where !rows.append(PhotoFeature.State(photo: photo)).inserted {
      lastError = "the server sent inconsistent data: photo \(photo.rawID) twice"
      return
    }
    for comment in payload.comments {
      guard rows[id: comment.photoID] != nil else {
        lastError = "the server sent inconsistent data: comment \(comment.rawID) on photo \(comment.photoID.raw), which it did not send"
        return
      }
      rows[id: comment.photoID]?.commentIDs.append(comment.entityID)
    }
    photos = rows
    database.performBatchUpdates { context in
      context.entities.comment.deleteAll()
      context.entities.author.deleteAll()
      context.entities.author.insert(payload.authors)
      context.entities.comment.insert(payload.comments)
    }
    lastError = nil
  }
}

extension GalleryDatabase {
  /// Comments by ID, in the order of `ids`; IDs not stored are left out.
  func comments(_ ids: [Comment.EntityID]) -> [Comment] {
    entities.comment.find(in: ids)
  }
}
