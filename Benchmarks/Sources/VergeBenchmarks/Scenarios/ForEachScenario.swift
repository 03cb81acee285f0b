import Verge
import VergeNeue

/// Scenario 11's row feature: bumps its row's value.
struct BumpRow: ActionReducer {
  typealias State = ListRow
  enum Action: Sendable, Equatable { case bump }

  func reduce(into state: inout ListRow, action: Action) -> Effect<Action, Never> {
    state.value &+= 1
    return .none
  }
}

/// Scenario 11's list feature: rows, and a counter unrelated to them.
struct BumpList: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<ListRow>
    var ticks = 0
  }
  enum Action: Sendable, Equatable {
    case tick
    case row(id: Int, action: BumpRow.Action)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: BumpRow.Action)>(
    { Action.row(id: $0.id, action: $0.action) }
  ) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    if case .tick = action { state.ticks &+= 1 }
    return .none
  }
}

extension Scenario {
  /// 11. `forEach` over an `IdentifiedArray`: a row action and an
  /// unrelated action at 100 and 100,000 rows, and the row action with the
  /// first subscriber against none.
  static var forEachRows: Scenario {
    let sizes = [100, 100_000]
    var cases: [BenchmarkCase] = []
    for size in sizes {
      cases += [
        BenchmarkCase(
          name: "\(grouped(size)) rows: row action through forEach, vs the row's own store",
          library: { forEachRowAction(size: size) }, baseline: { ownStoreAction() }),
        BenchmarkCase(
          name: "\(grouped(size)) rows: unrelated action, vs the same store without forEach",
          library: { forEachUnrelated(size: size, composed: true) },
          baseline: { forEachUnrelated(size: size, composed: false) }),
      ]
    }
    cases += firstSubscriberCases(sizes: sizes)
    return Scenario(
      number: 11, title: "forEach over an IdentifiedArray", cases: cases,
      targets: { results in
        let growth = ["row action through forEach", "unrelated action"].map { operation in
          // Judged on instructions, as scenario 10's growth targets are.
          let growth = results.cases.first { $0.name.hasPrefix("\(grouped(sizes[1])) rows: \(operation)") }
            .flatMap(growthFigure).flatMap { large in
              results.cases.first { $0.name.hasPrefix("\(grouped(sizes[0])) rows: \(operation)") }
                .flatMap(growthFigure).map { large / $0 }
            }
          return TargetVerdict.atMost(
            "\(operation): grows at most 4× from \(grouped(sizes[0])) to \(grouped(sizes[1])) rows", growth,
            limit: 4, format: Formatting.ratio)
        }
        // The first subscriber, judged on instructions; the original cases
        // come first in `cases`, so the growth lookups above find them.
        let firstSubscriber = results.cases.filter { $0.name.hasSuffix("vs no subscriber") }.map { result in
          TargetVerdict.atMost(
            "first subscriber: at most 4× no subscriber, \(result.name.components(separatedBy: ", vs").first ?? result.name)",
            result.library.instructionsPerOperation.flatMap { library in
              result.baseline.instructionsPerOperation.map { library / $0 }
            }, limit: 4, format: Formatting.ratio)
        }
        return growth + firstSubscriber
      })
  }
}

private func listState(_ size: Int) -> BumpList.State {
  BumpList.State(rows: IdentifiedArrayOf(uniqueElements: (0..<size).map { ListRow(id: $0, value: 0) }))
}

private func forEachRowAction(size: Int) -> Workload {
  let store = ActionStore(
    initialState: listState(size), reducer: BumpList().forEach(\.rows, action: BumpList.rowCase, element: BumpRow()))
  let cursor = Cursor(count: size)
  return Workload { iterations in
    for _ in 0..<iterations { store.send(.row(id: (cursor.next() &* 7_919) % size, action: .bump)) }
  }
}

private func ownStoreAction() -> Workload {
  let store = ActionStore(initialState: ListRow(id: 0, value: 0), reducer: BumpRow())
  return Workload { iterations in
    for _ in 0..<iterations { store.send(.bump) }
  }
}

private func forEachUnrelated(size: Int, composed: Bool) -> Workload {
  if composed {
    let store = ActionStore(
      initialState: listState(size), reducer: BumpList().forEach(\.rows, action: BumpList.rowCase, element: BumpRow()))
    return Workload { iterations in
      for _ in 0..<iterations { store.send(.tick) }
    }
  }
  let store = ActionStore(initialState: listState(size), reducer: BumpList())
  return Workload { iterations in
    for _ in 0..<iterations { store.send(.tick) }
  }
}
