import Verge
import VergeNeue
import VergeORM

/// One command of the comments shell.
enum GalleryCommand: Equatable, Sendable {
  case refresh
  /// One page of the photo list, from 1.
  case list(page: Int)
  case open(Int)
  case close
  case post(String)
  case delete(Int)
  case help
  case quit

  /// The commands and what they do, one line each, not indented.
  static let helpLines = [
    "refresh (r)    load photos and comments (a second refresh cancels the first)",
    "list (l) [P]   list page P (20 photos, default 1) with comment counts",
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
    case "list", "l": self = .list(page: rest.isEmpty ? 1 : try number())
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
/// the opened photo's scoped store and derived comment count, and the
/// activity notices; renders text lines.
///
/// No command visits every photo but `refresh`, which loads them: `list`
/// shows one page, `open` finds its photo by position and the opened
/// photo's row by ID, each in O(log n).
@MainActor
final class GallerySession {
  /// The photos `list` shows at a time.
  static let pageSize = 20

  /// The root store: the gallery with its photo features.
  let store: ActionStore<Composed<GalleryFeature>>
  /// The opened photo, a view onto its feature in the root store, and its
  /// comment count derived from its row alone.
  private(set) var opened: (
    id: Photo.EntityID,
    store: ScopedActionStore<PhotoFeature.State?, PhotoFeature.Action, GalleryActivity>,
    commentCount: Derived<Int>
  )?
  private let notices = NoticeBox()
  private var activity: StoreSubscription?

  /// Creates a session against a simulated server.
  init(api: FakePhotoAPI) {
    store = ActionStore(
      initialState: GalleryState(), reducer: GalleryFeature.composed(me: .init("you")),
      withDependencies: { $0.photoAPI = api })
    let notices = notices
    activity = store.sinkActivity { activity in
      switch activity {
      case .commentPosted(let comment, let photo):
        notices.append("comment \(comment.raw) posted on \(photo.raw)")
      }
    }
  }

  /// The photos in order, each with its comment IDs: a copy that shares
  /// the store's storage, O(1).
  var photos: IdentifiedArrayOf<PhotoFeature.State> {
    store.state.photos
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
      return ["\(state.photos.count) photos, \(state.database.entities.comment.count) comments"]
    case .list(let page):
      return listLines(page: page)
    case .open(let number):
      let photos = photos
      guard photos.indices.contains(number - 1) else { return ["error: no photo \(number); try 'list'"] }
      let id = photos[number - 1].id
      opened = (
        id,
        store.scope(state: \.[photo: id]) { GalleryFeature.Action.photo(id: id, action: $0) },
        store.derived(.map { $0.photos[id: id]?.commentIDs.count ?? 0 })
      )
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
      let commentIDs = opened.store.state.current?.commentIDs ?? []
      let comment = commentIDs.indices.contains(number - 1)
        ? store.state.database.comments([commentIDs[number - 1]]).first : nil
      await opened.store.send(.delete(position: number)).finish()
      if let error = store.state.lastError { return ["error: \(error); nothing was deleted"] }
      return ["deleted \"\(comment?.text ?? "")\""] + photoLines()
    case .help:
      return GalleryCommand.helpLines
    case .quit:
      return []
    }
  }

  /// The opened photo and its comments.
  func photoLines() -> [String] {
    guard let opened, let row = opened.store.state.current else { return ["no photo open"] }
    let comments = store.state.database.comments(row.commentIDs)
    let photo = row.photo
    var lines = ["\(photo.title) by \(authorName(photo.authorID)) - \(plural(opened.commentCount.value, "comment"))"]
    for (index, comment) in comments.enumerated() {
      lines.append("  \(index + 1). \(authorName(comment.authorID)): \(comment.text)")
    }
    return lines
  }

  /// One page of the photo list, and where the next page is.
  ///
  /// - Complexity: O(`pageSize` × log n): the page's rows are read by
  ///   position, whatever the number of photos.
  func listLines(page: Int) -> [String] {
    let photos = photos
    guard !photos.isEmpty else { return ["no photos; try 'refresh'"] }
    let size = Self.pageSize
    let pages = (photos.count + size - 1) / size
    guard page <= pages else { return ["error: no page \(page); the photos fill \(plural(pages, "page"))"] }
    let range = ((page - 1) * size)..<min(page * size, photos.count)
    var lines = range.map { index in
      let row = photos[index]
      return "\(index + 1). \(row.photo.title) by \(authorName(row.photo.authorID)) - \(plural(row.commentIDs.count, "comment"))"
    }
    if pages > 1 {
      lines.append("photos \(range.lowerBound + 1)-\(range.upperBound) of \(photos.count), page \(page) of \(pages)"
        + (page < pages ? "; 'list \(page + 1)' for more" : ""))
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
  ///
  /// - Complexity: O(log n): a look-up by ID.
  subscript(photo id: Photo.EntityID) -> PhotoFeature.State? {
    photos[id: id]
  }
}
