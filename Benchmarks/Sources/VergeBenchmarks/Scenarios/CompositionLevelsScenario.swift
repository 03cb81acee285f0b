import VergeNeue

// Scenario 13's features: scenario 11's row feature, embedded one and two
// levels deep, and kept optional under an `ifLet`.

/// A parent with a label of its own and scenario 11's row as its child:
/// `LevelOne` embeds the row, `OptionalCounterParent` keeps it optional.
struct LabelledParent<Counter: Equatable & Sendable>: ActionReducer {
  struct State: Equatable, Sendable {
    var label = ""
    var counter: Counter
  }
  enum Action: Sendable, Equatable {
    case rename(String)
    case counter(BumpRow.Action)
  }

  static var counterCase: ActionCase<Action, BumpRow.Action> {
    ActionCase({ .counter($0) }) {
      if case .counter(let action) = $0 { action } else { nil }
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    if case .rename(let label) = action { state.label = label }
    return .none
  }
}

typealias LevelOne = LabelledParent<ListRow>
typealias OptionalCounterParent = LabelledParent<ListRow?>

extension LabelledParent where Counter == ListRow {
  static var composed: Composed<LevelOne> {
    LevelOne().embed(BumpRow(), state: \.counter, action: counterCase)
  }
}

struct LevelTwo: ActionReducer {
  struct State: Equatable, Sendable {
    var flag = false
    var one = LevelOne.State(counter: ListRow(id: 0, value: 0))
  }
  enum Action: Sendable, Equatable {
    case toggle
    case one(LevelOne.Action)
  }

  static let oneCase = ActionCase<Action, LevelOne.Action>({ .one($0) }) {
    if case .one(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    if case .toggle = action { state.flag.toggle() }
    return .none
  }
}

extension Scenario {
  /// 13. `embed` and `ifLet`: each level of composition
  /// adds at most a plain send's cost, so a child's action sent through k
  /// levels costs at most (k + 1)× the same action sent to the child's own
  /// store.
  ///
  /// With them, `forEach` over 100 and 100,000 rows: a row's action; an
  /// action for an id the list does not hold, which finds no row and writes
  /// nothing; and the list alone, the same rows written by id with no store
  /// (`rows[id: id]?.value += 1`). The second is what composing costs
  /// without the row's write, so a row's action is judged against the
  /// second plus the third: composing adds nothing to the collection's own
  /// write.
  static var compositionLevels: Scenario {
    let levels: [(name: String, depth: Int, make: () -> Workload)] = [
      ("embed, one level", 1, {
        let store = ActionStore(initialState: LevelOne.State(counter: ListRow(id: 0, value: 0)), reducer: LevelOne.composed)
        return Workload(keepAlive: [store]) { iterations in
          for _ in 0..<iterations { store.send(.counter(.bump)) }
        }
      }),
      ("embed, two levels", 2, {
        let store = ActionStore(
          initialState: LevelTwo.State(),
          reducer: LevelTwo().embed(LevelOne.composed, state: \.one, action: LevelTwo.oneCase))
        return Workload(keepAlive: [store]) { iterations in
          for _ in 0..<iterations { store.send(.one(.counter(.bump))) }
        }
      }),
      ("ifLet, one level", 1, {
        let store = ActionStore(
          initialState: OptionalCounterParent.State(counter: ListRow(id: 0, value: 0)),
          reducer: OptionalCounterParent().ifLet(
            \.counter, action: OptionalCounterParent.counterCase, then: BumpRow()))
        return Workload(keepAlive: [store]) { iterations in
          for _ in 0..<iterations { store.send(.counter(.bump)) }
        }
      }),
    ]
    let levelCases = levels.map { level in
      BenchmarkCase(
        name: "\(level.name): the child's action, vs the child's own store",
        library: level.make,
        baseline: {
          let store = ActionStore(initialState: ListRow(id: 0, value: 0), reducer: BumpRow())
          return Workload(keepAlive: [store]) { iterations in
            for _ in 0..<iterations { store.send(.bump) }
          }
        })
    }
    let forEachCases = [100, 100_000].flatMap { rows in
      [
        BenchmarkCase(
          name: "forEach over \(grouped(rows)) rows: a row's action, vs the row's own store",
          library: { rowActionThroughForEach(IdentifiedArrayOf<AppRow>.self, count: rows) },
          baseline: rowOwnSend),
        BenchmarkCase(
          name: "forEach over \(grouped(rows)) rows: an action for an id not in the list (no row written), vs the row's own store",
          library: { rowActionThroughForEach(IdentifiedArrayOf<AppRow>.self, count: rows, idsFrom: rows) },
          baseline: rowOwnSend),
        BenchmarkCase(
          name: "forEach over \(grouped(rows)) rows: the list alone, a write by id, vs the row's own store",
          library: { listWriteByID(count: rows) },
          baseline: rowOwnSend),
      ]
    }
    return Scenario(
      number: 13, title: "embed and ifLet levels, and forEach", cases: levelCases + forEachCases,
      targets: { results in
        levels.map { level in
          .atMost(
            "\(level.name): at most \(level.depth + 1)× the child's own store (each level adds at most a plain send)",
            results.cases.first { $0.name.hasPrefix("\(level.name):") }?.ratio,
            limit: Double(level.depth + 1), format: Formatting.ratio)
        } + [100, 100_000].map { rows in
          .atMost(
            "forEach over \(grouped(rows)) rows: a row's action at most the action of no row plus the list's own write by id",
            forEachOverhead(results, rows: rows), limit: 1, format: Formatting.ratio)
        }
      })
  }
}

/// A row's action through `forEach` over `rows` rows, divided by the
/// action of an id the list does not hold plus the list's own write by id
/// (instructions, or time in a timed run); `nil` when a case is missing.
private func forEachOverhead(_ results: ScenarioResults, rows: Int) -> Double? {
  func cost(_ what: String) -> Double? {
    results.cases.first { $0.name.hasPrefix("forEach over \(grouped(rows)) rows: \(what)") }?.library.perOperation
  }
  guard let action = cost("a row's action"), let noRow = cost("an action for an id not in the list"),
    let write = cost("the list alone")
  else { return nil }
  return action / (noRow + write)
}

/// The list of `forEach over … rows` alone, with no store: each operation
/// writes one row by id, in the order the row actions visit them.
private func listWriteByID(count: Int) -> Workload {
  let box = Box(IdentifiedArrayOf<AppRow>(appRows: count))
  let walk = RowWalk(count: count)
  return Workload(keepAlive: [box]) { iterations in
    for _ in 0..<iterations { box.value[id: walk.next()]?.value &+= 1 }
  }
}
