import VergeNeue
import VergeORM

/// One command of the comments shell.
enum GalleryCommand: Equatable, Sendable {
  case refresh
  case list
  case open(Int)
  case close
  case post(String)
  case delete(Int)
  case help
  case quit

  static let helpText = """
      refresh (r)    load photos and comments (a second refresh cancels the first)
      list (l)       list the photos with their comment counts
      open N         open photo N and show its comments
      close          close the opened photo
      post TEXT      post a comment on the opened photo
      delete N       delete comment N of the opened photo
      help (?)       show this help
      quit (q)       leave
    """

  /// Parses one command.
  ///
  /// - Throws: `GalleryInputError` with a message for the user.
  init(parsing line: String) throws(GalleryInputError) {
    let text = line.trimmingSpaces()
    let word = String(text.prefix { $0 != " " }).lowercased()
    let rest = String(text.dropFirst(word.count)).trimmingSpaces()
    func number() throws(GalleryInputError) -> Int {
      guard let value = Int(rest), value > 0 else { throw .needsNumber(word) }
      return value
    }
    switch word {
    case "refresh", "r": self = .refresh
    case "list", "l": self = .list
    case "open", "o": self = .open(try number())
    case "close": self = .close
    case "post", "p":
      guard !rest.isEmpty else { throw .needsText }
      self = .post(rest)
    case "delete", "d": self = .delete(try number())
    case "help", "?": self = .help
    case "quit", "q": self = .quit
    default: throw .unknown(text)
    }
  }

  /// Parses a script of commands separated by `;`; nothing runs unless all parse.
  static func parse(script: String) throws(GalleryInputError) -> [GalleryCommand] {
    let parts = script.split(separator: ";").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
    guard !parts.isEmpty else { throw .emptyScript }
    var commands: [GalleryCommand] = []
    for part in parts { commands.append(try GalleryCommand(parsing: part)) }
    return commands
  }
}

/// Why a line of input was refused.
enum GalleryInputError: Error, Equatable, CustomStringConvertible {
  case unknown(String)
  case needsNumber(String)
  case needsText
  case emptyScript

  var description: String {
    switch self {
    case .unknown(let text): return "unknown command '\(text)'; try: refresh, list, open N, post TEXT, delete N"
    case .needsNumber(let word): return "'\(word)' needs a number from the list, for example '\(word) 1'"
    case .needsText: return "'post' needs the comment text, for example 'post Nice light'"
    case .emptyScript: return "the script is empty; separate commands with ';'"
    }
  }
}

/// The comments app: the store, the derived comment counts, the opened
/// photo's scoped store, and the activity notices; renders text lines.
@MainActor
final class GallerySession {
  /// The root store.
  let store: ReducerStore<GalleryReducer>
  /// Comments per photo, recomputed only when the database changes.
  let commentCounts: Derived<[Photo.EntityID: Int]>
  private let api: FakePhotoAPI
  private(set) var opened: (id: Photo.EntityID, store: ScopedStore<PhotoReducer>)?
  private let notices = NoticeBox()
  private var activity: StoreSubscription?

  /// Creates a session against a simulated server.
  init(api: FakePhotoAPI) {
    self.api = api
    store = ReducerStore(initialState: GalleryState(), reducer: GalleryReducer(api: api, me: .init("you")))
    commentCounts = store.derived(.map(\.database) { database in
      var counts: [Photo.EntityID: Int] = [:]
      for photo in database.entities.photo.all() {
        counts[photo.entityID] = database.indexes.commentsByPhoto.ids(in: photo.entityID).count
      }
      return counts
    })
    let notices = notices
    activity = store.sinkActivity { activity in
      switch activity {
      case .commentPosted(let comment, let photo):
        notices.append("comment \(comment.raw) posted on \(photo.raw)")
      }
    }
  }

  /// The photos in order.
  var photos: [Photo] {
    let database = store.state.database
    return database.entities.photo.find(in: database.indexes.allPhotos)
  }

  /// Starts a refresh; a refresh already running is cancelled (`dropCurrent`).
  ///
  /// - Returns: The task, to wait for the result.
  func startRefresh() -> Task<Void, any Error> {
    store.task(key: TaskKey("refresh"), mode: .dropCurrent) { [store] in
      try await store.dispatch { $0.refresh() }
    }
  }

  /// Runs one command and returns the lines to show.
  func perform(_ command: GalleryCommand) async -> [String] {
    switch command {
    case .refresh:
      let result = await startRefresh().result
      if case .failure(let error) = result { return ["error: \(error)"] }
      let state = store.state.current
      return ["\(photos.count) photos, \(state.database.entities.comment.count) comments"]
    case .list:
      guard !photos.isEmpty else { return ["no photos; try 'refresh'"] }
      let counts = commentCounts.value
      return photos.enumerated().map { index, photo in
        "\(index + 1). \(photo.title) by \(authorName(photo.authorID)) - \(plural(counts[photo.entityID] ?? 0, "comment"))"
      }
    case .open(let number):
      guard photos.indices.contains(number - 1) else { return ["error: no photo \(number); try 'list'"] }
      let photo = photos[number - 1]
      opened = (photo.entityID, store.core.scope(\.database, reducer: PhotoReducer(photoID: photo.entityID, api: api)))
      return photoLines()
    case .close:
      opened = nil
      return ["closed"]
    case .post(let text):
      guard let opened else { return ["error: open a photo first"] }
      do {
        // A @Sendable closure: `dispatch`'s parameter is not `sending`, so a
        // main-actor closure cannot be passed to it directly.
        let photoID = opened.id
        let action: @Sendable (GalleryReducer) -> GalleryReducer.Action<Comment> = {
          $0.postComment(text, on: photoID)
        }
        _ = try await store.dispatch(action)
        return notices.take() + photoLines()
      } catch {
        return ["error: \(error); nothing was posted"]
      }
    case .delete(let number):
      guard let opened else { return ["error: open a photo first"] }
      do {
        let action: @Sendable (PhotoReducer) -> PhotoReducer.Action<Comment> = { $0.deleteComment(at: number) }
        let comment = try await opened.store.dispatch(action)
        return ["deleted \"\(comment.text)\""] + photoLines()
      } catch {
        return ["error: \(error); nothing was deleted"]
      }
    case .help:
      return [GalleryCommand.helpText]
    case .quit:
      return []
    }
  }

  /// The opened photo and its comments.
  func photoLines() -> [String] {
    guard let opened, case let database = opened.store.state.current,
      let photo = database.entities.photo.find(by: opened.id)
    else { return ["no photo open"] }
    let comments = PhotoReducer.comments(of: opened.id, in: database)
    var lines = ["\(photo.title) by \(authorName(photo.authorID)) - \(plural(comments.count, "comment"))"]
    for (index, comment) in comments.enumerated() {
      lines.append("  \(index + 1). \(authorName(comment.authorID)): \(comment.text)")
    }
    return lines
  }

  /// The pending activity notices, oldest first, emptied.
  func takeNotices() -> [String] { notices.take() }

  private func authorName(_ id: Author.EntityID) -> String {
    store.state.database.entities.author.find(by: id)?.name ?? id.raw
  }

  private func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
