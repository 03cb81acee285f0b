import Verge
import VergeNeue

/// The rows in an identified collection, as the Large states article recommends: a row is
/// read and written by its id (`rows[id: k]`), in O(log n) also while an
/// older copy is held, and `forEach` composes the list feature.
extension IdentifiedArray: AppScaleRows where ID == Int, Element == AppRow {
  static var formName: String { "IdentifiedArray" }

  init(appRows count: Int) {
    self.init(uniqueElements: (0..<count).map { AppRow(id: $0) })
  }

  func row(_ id: Int) -> AppRow {
    guard let row = self[id: id] else { preconditionFailure("row \(id) exists") }
    return row
  }

  mutating func update(_ id: Int, _ body: (inout AppRow) -> Void) {
    body(&self[id: id]!)
  }

  mutating func park(_ id: Int) -> ParkedRow {
    guard let index = index(id: id) else { preconditionFailure("row \(id) exists") }
    return ParkedRow(index: index, row: remove(at: index))
  }

  mutating func restore(_ parked: ParkedRow) {
    insert(parked.row, at: parked.index)
  }

  static func rowKeyPath(_ id: Int) -> WritableKeyPath<AppList<Self>, AppRow> & Sendable {
    \.rows[id: id]!
  }

  static var listFeature: Composed<AppListFeature<Self>> {
    AppListFeature<Self>().forEach(\.rows, action: AppListAction.rowCase, element: AppRowFeature())
  }
}
