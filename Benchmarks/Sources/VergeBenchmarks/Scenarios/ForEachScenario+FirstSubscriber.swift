import Verge
import VergeNeue

/// Scenario 11's message row feature: bumps one field of a `PeerRow` (an
/// `Int` id and five fields, one a short `String`: a message of an inbox).
struct BumpMessage: ActionReducer {
  typealias State = PeerRow
  typealias Action = BumpRow.Action

  func reduce(into state: inout PeerRow, action: BumpRow.Action) -> Effect<Action, Never> {
    state.value &+= 1
    return .none
  }
}

/// A list feature whose rows run `Row` through `forEach`, for the
/// first-subscriber cases of scenario 11.
struct RowList<Row: ActionReducer>: ActionReducer where Row.State: Identifiable, Row.State.ID == Int {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State>
  }
  enum Action: Sendable {
    case row(id: Int, action: Row.Action)
  }

  static var rowCase: ActionCase<Action, (id: Int, action: Row.Action)> {
    ActionCase({ Action.row(id: $0.id, action: $0.action) }) {
      if case .row(let id, let action) = $0 { (id, action) } else { nil }
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    .none
  }
}

/// The one subscriber an app has, in the forms users write.
enum FirstSubscriber: CaseIterable {
  case sinkState
  /// Subscribed from main-actor code (a view controller's or a view
  /// model's), so the handler is main-actor isolated; the action is sent on
  /// the main thread, where the handler runs at once.
  case mainActorSinkState
  case ifChanged
  case derived

  var label: String {
    switch self {
    case .sinkState: "one whole-state sinkState { _ in }"
    case .mainActorSinkState: "one main-actor sinkState { _ in }"
    case .ifChanged: "one ifChanged reader of one row (closure form)"
    case .derived: "one derived of one row"
    }
  }
}

extension Scenario {
  /// Scenario 11's first-subscriber cases: a row action through `forEach`
  /// with one subscriber (`library`) against the same action on the same
  /// store with none (`baseline`), so the ratio is what the first
  /// subscriber costs; for `ListRow`s (two `Int`s) and for messages
  /// (`PeerRow`s).
  static func firstSubscriberCases(sizes: [Int]) -> [BenchmarkCase] {
    var cases: [BenchmarkCase] = []
    for size in sizes {
      for subscriber in FirstSubscriber.allCases {
        cases += [
          BenchmarkCase(
            name: "\(grouped(size)) messages: row action through forEach with \(subscriber.label), vs no subscriber",
            library: {
              firstSubscriberAction(BumpMessage(), rows: (0..<size).map(PeerRow.init(id:)), subscriber: subscriber)
            },
            baseline: { firstSubscriberAction(BumpMessage(), rows: (0..<size).map(PeerRow.init(id:)), subscriber: nil) }),
          BenchmarkCase(
            name: "\(grouped(size)) rows: row action through forEach with \(subscriber.label), vs no subscriber",
            library: {
              firstSubscriberAction(BumpRow(), rows: (0..<size).map { ListRow(id: $0, value: 0) }, subscriber: subscriber)
            },
            baseline: {
              firstSubscriberAction(BumpRow(), rows: (0..<size).map { ListRow(id: $0, value: 0) }, subscriber: nil)
            }),
        ]
      }
    }
    return cases
  }
}

/// A row action (scattered ids) through `forEach` over `rows`, on a store
/// with `subscriber` (reading the middle row) or with none.
private func firstSubscriberAction<Row: ActionReducer>(
  _ row: Row, rows: [Row.State], subscriber: FirstSubscriber?
) -> Workload where Row.State: Identifiable, Row.State.ID == Int, Row.Action == BumpRow.Action, Row.Activity == Never {
  let size = rows.count
  let store = ActionStore(
    initialState: RowList<Row>.State(rows: IdentifiedArrayOf(uniqueElements: rows)),
    reducer: RowList<Row>().forEach(\.rows, action: RowList<Row>.rowCase, element: row))
  let watched = size / 2
  var keepAlive: [AnyObject] = []
  switch subscriber {
  case .sinkState:
    store.sinkState { _ in }.storeWhileSourceActive()
  case .mainActorSinkState:
    // The suite runs on the main thread.
    MainActor.assumeIsolated { subscribeFromMainActor(store) }
  case .ifChanged:
    store.sinkState { $0.ifChanged({ $0.rows[id: watched] }) { blackHole($0) } }.storeWhileSourceActive()
  case .derived:
    keepAlive.append(store.derived(.map { $0.rows[id: watched] }))
  case nil:
    break
  }
  let next = scatteredIDs(size)
  return Workload(keepAlive: keepAlive) { iterations in
    for _ in 0..<iterations { store.send(.row(id: next(), action: .bump)) }
  }
}

/// A whole-state subscriber made in main-actor code, as a view controller
/// makes it: its handler is isolated to the main actor.
@MainActor
private func subscribeFromMainActor<Feature: ActionReducer>(_ store: ActionStore<Feature>) {
  store.sinkState { _ in }.storeWhileSourceActive()
}
