import VergeNeue
import VergeORM

/// One photo's feature: posting a comment on it and deleting one of its
/// comments, against the server. The gallery runs one per photo
/// (`GalleryFeature.composed`, `forEach` over `GalleryState.photos`): a
/// photo keeps its comment IDs in its row, and the gallery stores the
/// comments themselves in its database when it sees `.posted` and
/// `.deleted`.
struct PhotoFeature: ActionReducer {
  /// One photo's row: the photo and its comments' IDs, oldest first.
  struct State: Equatable, Sendable, Identifiable, Codable {
    var photo: Photo
    var commentIDs: [Comment.EntityID] = []

    var id: Photo.EntityID { photo.entityID }
  }

  typealias Activity = GalleryActivity

  enum Action: Sendable, Equatable {
    /// The user posts a comment.
    case post(String)
    /// The server took the comment.
    case posted(Comment)
    /// The user deletes the comment at a 1-based position.
    case delete(position: Int)
    /// The server deleted the comment.
    case deleted(Comment.EntityID)
    /// The request failed; nothing changed.
    case failed(String)
  }

  /// The simulated server: the store's (`withDependencies:`).
  @Dependency(\.photoAPI) var api
  /// Who posts comments from this session.
  let me: Author.EntityID

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .post(let text):
      let (api, me, photoID) = (api, me, state.id)
      return .run { send in
        do {
          send(.posted(try await api.postComment(text, on: photoID, by: me)))
        } catch {
          send(.failed("\(error)"))
        }
      }
    case .delete(let position):
      guard state.commentIDs.indices.contains(position - 1) else {
        return .send(.failed("\(APIError.notFound("comment \(position) of this photo"))"))
      }
      let (api, commentID) = (api, state.commentIDs[position - 1])
      return .run { send in
        do {
          try await api.deleteComment(commentID)
          send(.deleted(commentID))
        } catch {
          send(.failed("\(error)"))
        }
      }
    case .posted(let comment):
      state.commentIDs.append(comment.entityID)
      return .none
    case .deleted(let commentID):
      state.commentIDs.removeAll { $0 == commentID }
      return .none
    case .failed:
      return .none
    }
  }
}
