import VergeNeue

/// One row of the app-scale scenario (a mail, a post, a message): its own
/// feature with its own actions.
struct AppRow: Identifiable, Equatable, Codable, Sendable {
  let id: Int
  var value = 0
  var isRead = false
}

/// A row taken out of the list, with where it was, so that it can be put
/// back (the remove-and-re-add case keeps the list at its size).
struct ParkedRow: Equatable, Codable, Sendable {
  let index: Int
  let row: AppRow
}

/// The collection that holds the rows: the one type parameter of the
/// scenario, so that every path runs on a plain `[AppRow]` and on an
/// identified collection alike.
///
/// Rows have the ids `0..<n`. Each conformance writes the forms an app
/// written with that collection would use (`rows[k]` for an array,
/// `rows[id: k]` for an identified collection), including the key paths.
protocol AppScaleRows: Equatable, Codable, Sendable {
  /// The collection's name in case names and the chart (`[Row]`).
  static var formName: String { get }
  /// `count` rows with the ids `0..<count`.
  init(appRows count: Int)
  /// The row with the id `id`.
  func row(_ id: Int) -> AppRow
  /// Changes the row with the id `id` in place.
  mutating func update(_ id: Int, _ body: (inout AppRow) -> Void)
  /// Removes the row with the id `id`.
  mutating func park(_ id: Int) -> ParkedRow
  /// Puts a removed row back where it was.
  mutating func restore(_ parked: ParkedRow)
  /// `\.rows[id]` as the collection spells it, for key-path forms
  /// (`ifChanged(_:)`, `.select`, `scope(_:reducer:)`).
  static func rowKeyPath(_ id: Int) -> WritableKeyPath<AppList<Self>, AppRow> & Sendable
  /// The list feature with one `AppRowFeature` per row.
  associatedtype ListFeature: ActionReducer where ListFeature.State == AppList<Self>, ListFeature.Action == AppListAction
  /// The list feature as an app keeps it with this collection: composed
  /// with `forEach` where `forEach` takes the collection, written by hand
  /// otherwise.
  static var listFeature: ListFeature { get }
}

/// The app's state: the rows, a field that no row reads, and the row that
/// the remove case took out.
struct AppList<Rows: AppScaleRows>: Equatable, Codable, Sendable {
  var rows: Rows
  var unrelated = 0
  var parked: ParkedRow?

  init(rows: Rows) {
    self.rows = rows
  }
}

/// The feature of one row.
struct AppRowFeature: ActionReducer {
  typealias State = AppRow
  enum Action: Sendable, Equatable { case increment }

  func reduce(into state: inout AppRow, action: Action) -> Effect<Action, Activity> {
    state.value &+= 1
    return .none
  }
}

/// The method reducer of one row, for scoped stores.
final class AppRowMethods: ReducerType {
  typealias TargetState = AppRow

  func increment() -> Mutation { .init { $0.value &+= 1 } }
}

/// The list's actions: an action for a row, one that no row cares about,
/// and removing a row and putting it back.
enum AppListAction: Sendable {
  case row(id: Int, action: AppRowFeature.Action)
  case bump
  case park(id: Int)
  case restore

  /// The case that carries a row's actions, for `forEach`.
  static let rowCase = ActionCase<AppListAction, (id: Int, action: AppRowFeature.Action)>({
    .row(id: $0.id, action: $0.action)
  }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
}

/// The list feature's own reduction (the parent's part; rows are reduced by
/// their own feature).
struct AppListFeature<Rows: AppScaleRows>: ActionReducer {
  typealias State = AppList<Rows>
  typealias Action = AppListAction

  func reduce(into state: inout AppList<Rows>, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .row:
      break
    case .bump:
      state.unrelated &+= 1
    case .park(let id):
      state.parked = state.rows.park(id)
    case .restore:
      if let parked = state.parked {
        state.parked = nil
        state.rows.restore(parked)
      }
    }
    return .none
  }
}
