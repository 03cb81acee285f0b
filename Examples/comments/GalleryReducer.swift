import VergeNeue
import VergeORM

/// The gallery's method reducer: loading from the API, posting comments,
/// and the mutations that write them into the normalized database.
struct GalleryReducer: ReducerType {
  typealias TargetState = GalleryState
  typealias TargetActivity = GalleryActivity

  /// The simulated server.
  let api: FakePhotoAPI
  /// Who posts comments from this session.
  let me: Author.EntityID

  /// Loads everything and replaces the database with it.
  ///
  /// - Returns: How many photos were loaded.
  func refresh() -> Action<Int> {
    .init { context in
      context.commit { $0.setLoading(true) }
      do {
        let payload = try await api.fetchGallery()
        try Task.checkCancellation()
        context.commit { $0.replaceAll(with: payload) }
        return payload.photos.count
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        context.commit { $0.failed(error) }
        throw error
      }
    }
  }

  /// Posts a comment on a photo, stores it, and sends `commentPosted`.
  ///
  /// - Returns: The posted comment.
  func postComment(_ text: String, on photoID: Photo.EntityID) -> Action<Comment> {
    .init { context in
      do {
        let comment = try await api.postComment(text, on: photoID, by: me)
        context.commit { $0.insert(comment) }
        context.send(.commentPosted(comment.entityID, on: photoID))
        return comment
      } catch {
        context.commit { $0.failed(error) }
        throw error
      }
    }
  }

  /// Marks a refresh as running.
  func setLoading(_ loading: Bool) -> Mutation {
    .init { $0.isLoading = loading }
  }

  /// Replaces the database with what the server sent, in one batch.
  func replaceAll(with payload: GalleryPayload) -> Mutation {
    .init { state in
      do {
        try state.database.performBatchUpdates { (context) throws(DatabaseError) in
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
        state.lastError = nil
      } catch {
        state.lastError = "the server sent inconsistent data: \(error)"
      }
      state.isLoading = false
    }
  }

  /// Stores one new comment.
  func insert(_ comment: Comment) -> Mutation {
    .init { state in
      do {
        try state.database.performBatchUpdates { (context) throws(DatabaseError) in
          context.entities.comment.insert(comment)
          try context.indexes.commentsByPhoto.append(comment.entityID, to: comment.photoID)
        }
        state.lastError = nil
      } catch {
        state.lastError = "could not store the comment: \(error)"
      }
    }
  }

  /// Records an error for the user; the data stays as it was.
  func failed(_ error: any Error) -> Mutation {
    .init { state in
      state.lastError = "\(error)"
      state.isLoading = false
    }
  }
}

/// The reducer of one opened photo, used through a `ScopedStore` on the
/// database: it deletes that photo's comments.
struct PhotoReducer: ReducerType {
  typealias TargetState = GalleryDatabase

  /// The opened photo.
  let photoID: Photo.EntityID
  /// The simulated server.
  let api: FakePhotoAPI

  /// The photo's comments, oldest first.
  static func comments(of photoID: Photo.EntityID, in database: GalleryDatabase) -> [Comment] {
    database.entities.comment.find(in: database.indexes.commentsByPhoto.ids(in: photoID))
  }

  /// Deletes the photo's comment at a 1-based position, on the server and here.
  ///
  /// - Throws: `APIError.notFound` for a position with no comment, or what the server threw.
  func deleteComment(at position: Int) -> Action<Comment> {
    .init { context in
      let comments = Self.comments(of: photoID, in: context.state)
      guard comments.indices.contains(position - 1) else {
        throw APIError.notFound("comment \(position) of this photo")
      }
      let comment = comments[position - 1]
      try await api.deleteComment(comment.entityID)
      context.commit { $0.remove(comment.entityID) }
      return comment
    }
  }

  /// Removes one comment; the batch also takes it out of every index.
  func remove(_ id: Comment.EntityID) -> Mutation {
    .init { database in
      database.performBatchUpdates { context in
        _ = context.entities.comment.delete(id)
      }
    }
  }
}
