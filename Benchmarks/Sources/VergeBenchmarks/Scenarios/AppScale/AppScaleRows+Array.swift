import VergeNeue

/// The rows in a plain array, as apps keep them without an identified
/// collection: a row is read and written by its position (`rows[k]`), and
/// the parent finds a row to act on or remove by searching for its id.
/// `forEach` takes only an `IdentifiedArray`, so the list feature is written
/// by hand (`ArrayListFeature`).
extension Array: AppScaleRows where Element == AppRow {
  static var formName: String { "[Row]" }

  init(appRows count: Int) {
    self = (0..<count).map { AppRow(id: $0) }
  }

  func row(_ id: Int) -> AppRow {
    self[id]
  }

  mutating func update(_ id: Int, _ body: (inout AppRow) -> Void) {
    body(&self[id])
  }

  mutating func park(_ id: Int) -> ParkedRow {
    guard let index = firstIndex(where: { $0.id == id }) else { preconditionFailure("row \(id) exists") }
    return ParkedRow(index: index, row: remove(at: index))
  }

  mutating func restore(_ parked: ParkedRow) {
    insert(parked.row, at: parked.index)
  }

  static func rowKeyPath(_ id: Int) -> WritableKeyPath<AppList<Self>, AppRow> & Sendable {
    \.rows[id]
  }

  static var listFeature: ArrayListFeature { ArrayListFeature() }
}

/// The list feature over a plain array, as an app writes it by hand: a row
/// action searches the rows for its id (`firstIndex(where:)`) and reduces
/// the row in place, then the parent reduces. It cancels nothing when a row
/// goes (a row here starts no effect); `forEach` over an array did, by
/// collecting every id before and after each action.
struct ArrayListFeature: ActionReducer {
  typealias State = AppList<[AppRow]>
  typealias Action = AppListAction

  func reduce(into state: inout AppList<[AppRow]>, action: Action) -> Effect<Action, Activity> {
    if case .row(let id, let rowAction) = action, let index = state.rows.firstIndex(where: { $0.id == id }) {
      _ = AppRowFeature().reduce(into: &state.rows[index], action: rowAction)
    }
    return AppListFeature<[AppRow]>().reduce(into: &state, action: action)
  }
}
