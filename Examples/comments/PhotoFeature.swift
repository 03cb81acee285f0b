import VergeNeue
import VergeORM

/// One photo's feature: posting a comment on it and deleting one of its
/// comments, against the server. The gallery runs one per photo
/// (`GalleryFeature.composed`) and stores what it reports: a photo's
/// `.posted` and `.deleted` are the gallery's to react to.
struct PhotoFeature: ActionReducer {
  /// A photo as its feature sees it: its ID and its comments, oldest first,
  /// read from the gallery's database.
  struct State: Equatable, Sendable, Identifiable {
    let id: Photo.EntityID
    var commentIDs: [Comment.EntityID]
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

  /// The simulated server.
  let api: FakePhotoAPI
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
    case .posted, .deleted, .failed:
      return .none
    }
  }
}
