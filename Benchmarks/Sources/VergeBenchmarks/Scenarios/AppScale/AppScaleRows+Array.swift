import VergeNeue

/// The rows in a plain array, as apps keep them without an identified
/// collection: a row is read and written by its position (`rows[k]`), the
/// parent finds a row to remove by searching for its id, and `forEach`
/// searches too.
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

  static var listFeature: Composed<AppListFeature<Self>>? {
    AppListFeature<Self>().forEach(\.rows, action: AppListFeature<Self>.rowCase, element: AppRowFeature())
  }
}
