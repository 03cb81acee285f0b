import ExampleTerminal
import Foundation
import Verge

/// The counts of the three styles, as `--state-file` keeps them.
struct SavedCounts: Equatable, Codable, Sendable {
  /// The free-commit counter's count.
  var free = 0
  /// The method-reducer counter's count.
  var method = 0
  /// The enum-action counter's count.
  var action = 0

  /// The count of one style.
  subscript(style: CounterStyle) -> Int {
    get {
      switch style {
      case .free: return free
      case .method: return method
      case .action: return action
      }
    }
    set {
      switch style {
      case .free: free = newValue
      case .method: method = newValue
      case .action: action = newValue
      }
    }
  }
}

/// `--state-file PATH`: one file that keeps the count of every style.
///
/// The three styles have a store each, and a file is persisted by one store,
/// so the file belongs to a small store of its own holding the three counts.
/// Each counter starts from its saved count and mirrors every change into
/// that store, which `persist` writes shortly after (and `finish()` at once).
/// Undo histories and pending "later" increments are not saved.
@MainActor
final class CounterStateFile {
  /// The schema version of the file; raise it when `SavedCounts` changes.
  static let version = 1

  /// The state file.
  let url: URL
  /// What happened to the file when it was opened.
  let outcome: RestoreOutcome
  private let store: Store<SavedCounts, Never>
  private let persistence: FilePersistence
  private var mirrors: [StoreSubscription] = []

  /// Opens the file and restores the counts from it.
  ///
  /// A damaged file, or one of a newer version, is moved aside and the
  /// counts start at zero; ``refusal`` then says so.
  ///
  /// - Parameter path: The file's path, relative to the current directory or absolute.
  /// - Throws: `StateFileProblem` when the file cannot be used at all (its
  ///   directory does not exist, something other than a file is there, it
  ///   is unreadable, or another `counter` is using it).
  init(path: String) throws(StateFileProblem) {
    url = try StateFileProblem.url(of: path, program: "counter")
    store = Store(initialState: SavedCounts())
    do {
      persistence = try store.persist(\.self, to: url, version: Self.version)
    } catch {
      throw StateFileProblem(error, path: path)
    }
    outcome = persistence.restoreOutcome
  }

  /// The counts the file's store holds: those restored from the file (zero
  /// when there was none, or it was refused) until the counters change them.
  var counts: SavedCounts { store.state.current }

  /// A sentence about a refused file, for standard error; `nil` otherwise.
  var refusal: String? {
    guard case .refused(let error, let movedAside) = outcome else { return nil }
    return "the state file \(url.path) was refused (\(error)); "
      + "it was moved to \(movedAside.path), and the counts start at 0"
  }

  /// Mirrors every change of the session's counters into the file's store.
  ///
  /// - Parameter session: A session made with ``counts`` as its starting counts.
  func follow(_ session: CounterSession) {
    let store = self.store
    mirrors = session.models.map { style, model in
      model.observe { count in store.commit { $0[style] = count } }
    }
  }

  /// Writes what is not written yet and gives the file up, so that the next
  /// `counter` can open it; later changes are not saved.
  ///
  /// - Throws: `PersistenceError` when the write fails; the file keeps what
  ///   it held before.
  func finish() async throws(PersistenceError) {
    try await persistence.flush()  // waits for the disk without blocking a thread
    try persistence.close()  // nothing is left to write: it only releases the file
  }
}
