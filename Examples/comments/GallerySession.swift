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

  /// The commands and what they do, one line each, not indented.
  static let helpLines = [
    "refresh (r)    load photos and comments (a second refresh cancels the first)",
    "list (l)       list the photos with their comment counts",
    "open N         open photo N and show its comments",
    "close          close the opened photo",
    "post TEXT      post a comment on the opened photo",
    "delete N       delete comment N of the opened photo",
    "help (?)       show this help",
    "quit (q)       leave",
  ]

  /// The help for `--help`: the lines, each indented by two spaces.
  static var helpText: String {
    helpLines.map { "  " + $0 }.joined(separator: "\n")
  }

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

/// The comments app: one store runs the gallery and a feature per photo;
/// the derived comment counts, the opened photo's scoped store, and the
/// activity notices; renders text lines.
@MainActor
final class GallerySession {
  /// The root store: the gallery with its photo features.
  let store: ActionStore<Composed<GalleryFeature>>
  /// Comments per photo, recomputed only when the database changes.
  let commentCounts: Derived<[Photo.EntityID: Int]>
  /// The opened photo and a view onto its feature in the root store.
  private(set) var opened: (id: Photo.EntityID, store: ScopedActionStore<PhotoFeature.State?, PhotoFeature.Action, GalleryActivity>)?
  private let notices = NoticeBox()
  private var activity: StoreSubscription?

  /// Creates a session against a simulated server.
  init(api: FakePhotoAPI) {
    store = ActionStore(initialState: GalleryState(), reducer: GalleryFeature.composed(api: api, me: .init("you")))
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

  /// Starts a refresh; a refresh already running is cancelled (its effect
  /// is `cancellable(id:cancelInFlight:)`).
  ///
  /// - Returns: The store's handle, to wait for the refresh.
  @discardableResult
  func startRefresh() -> StoreTask {
    store.send(.refresh)
  }

  /// Runs one command and returns the lines to show.
  func perform(_ command: GalleryCommand) async -> [String] {
    switch command {
    case .refresh:
      await startRefresh().finish()
      if let error = store.state.lastError { return ["error: \(error)"] }
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
      let id = photos[number - 1].entityID
      opened = (id, store.scope(state: \.[photo: id]) { GalleryFeature.Action.photo(id: id, action: $0) })
      return photoLines()
    case .close:
      opened = nil
      return ["closed"]
    case .post(let text):
      guard let opened else { return ["error: open a photo first"] }
      await opened.store.send(.post(text)).finish()
      if let error = store.state.lastError { return ["error: \(error); nothing was posted"] }
      return notices.take() + photoLines()
    case .delete(let number):
      guard let opened else { return ["error: open a photo first"] }
      let comments = store.state.database.comments(of: opened.id)
      await opened.store.send(.delete(position: number)).finish()
      if let error = store.state.lastError { return ["error: \(error); nothing was deleted"] }
      return ["deleted \"\(comments[number - 1].text)\""] + photoLines()
    case .help:
      return GalleryCommand.helpLines
    case .quit:
      return []
    }
  }

  /// The opened photo and its comments.
  func photoLines() -> [String] {
    guard let opened, let photoState = opened.store.state.current,
      case let database = store.state.database,
      let photo = database.entities.photo.find(by: opened.id)
    else { return ["no photo open"] }
    let comments = database.entities.comment.find(in: photoState.commentIDs)
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

extension GalleryState {
  /// The feature state of the photo `id`, `nil` when there is no such photo:
  /// what an opened photo's scoped store reads.
  subscript(photo id: Photo.EntityID) -> PhotoFeature.State? {
    photos.first { $0.id == id }
  }
}
