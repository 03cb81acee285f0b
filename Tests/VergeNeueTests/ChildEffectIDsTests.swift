import Verge
import VergeTestSupport
import XCTest

@testable import VergeNeue

/// A feature with a timer and a download that run until cancelled, each
/// under an id that every copy of the feature uses.
struct Ticker: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: String
    var ticking = false
  }
  enum Action: Sendable, Equatable {
    case start
    /// Starts the timer, cancelling the one in flight.
    case restart
    case stop
    case download
  }
  enum CancelID: Hashable, Sendable {
    case timer
    case download
  }

  let tasks: ParkedTasks

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .start, .restart:
      state.ticking = true
      return .run { [tasks, name = "\(state.id) timer"] _ in await tasks.park(name) }
        .cancellable(id: CancelID.timer, cancelInFlight: action == .restart)
    case .stop:
      state.ticking = false
      return .cancel(id: CancelID.timer)
    case .download:
      return .run { [tasks, name = "\(state.id) download"] _ in await tasks.park(name) }
        .cancellable(id: CancelID.download)
    }
  }
}

/// A parent with tickers in each kind of place: two rows (`forEach`), two
/// embedded copies (`left`, `right`) and an optional one (`ifLet`); and a
/// timer of its own under the tickers' id.
struct Board: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: String
    var rows: IdentifiedArrayOf<Ticker.State>
    var left: Ticker.State
    var right: Ticker.State
    var detail: Ticker.State?

    init(id: String) {
      self.id = id
      rows = [.init(id: "\(id) row 1"), .init(id: "\(id) row 2")]
      left = .init(id: "\(id) left")
      right = .init(id: "\(id) right")
      detail = .init(id: "\(id) detail")
    }
  }
  enum Action: Sendable, Equatable {
    case row(id: String, action: Ticker.Action)
    case left(Ticker.Action)
    case right(Ticker.Action)
    case detail(Ticker.Action)
    case startOwn
    case stopOwn
    case removeRow(String)
    case dismissDetail
  }

  static let rowCase = ActionCase<Action, (id: String, action: Ticker.Action)>({ .row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
  static let leftCase = ActionCase<Action, Ticker.Action>(Action.left) {
    if case .left(let action) = $0 { action } else { nil }
  }
  static let rightCase = ActionCase<Action, Ticker.Action>(Action.right) {
    if case .right(let action) = $0 { action } else { nil }
  }
  static let detailCase = ActionCase<Action, Ticker.Action>(Action.detail) {
    if case .detail(let action) = $0 { action } else { nil }
  }

  let tasks: ParkedTasks

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .startOwn:
      return .run { [tasks, name = "\(state.id) own timer"] _ in await tasks.park(name) }
        .cancellable(id: Ticker.CancelID.timer)
    case .stopOwn:
      return .cancel(id: Ticker.CancelID.timer)
    case .removeRow(let id):
      state.rows[id: id] = nil
      return .none
    case .dismissDetail:
      state.detail = nil
      return .none
    case .row, .left, .right, .detail:
      return .none
    }
  }

  typealias Feature = Composed<Composed<Composed<Composed<Board>>>>

  /// The board with its tickers composed in.
  static func feature(_ tasks: ParkedTasks) -> Feature {
    Board(tasks: tasks)
      .forEach(\.rows, action: rowCase, element: Ticker(tasks: tasks))
      .embed(Ticker(tasks: tasks), state: \.left, action: leftCase)
      .embed(Ticker(tasks: tasks), state: \.right, action: rightCase)
      .ifLet(\.detail, action: detailCase, then: Ticker(tasks: tasks))
  }

  /// Every ticker's timer, and the board's own: what `startAll` starts.
  static func timers(of board: String) -> [String] {
    ["detail", "left", "own", "right", "row 1", "row 2"].map { "\(board) \($0) timer" }
  }
}

/// Boards in a list, for ids two levels deep.
struct Boards: ActionReducer {
  struct State: Equatable, Sendable {
    var boards: IdentifiedArrayOf<Board.State> = [.init(id: "A"), .init(id: "B")]
  }
  enum Action: Sendable, Equatable {
    case board(id: String, action: Board.Action)
    case remove(String)
  }

  static let boardCase = ActionCase<Action, (id: String, action: Board.Action)>({
    .board(id: $0.id, action: $0.action)
  }) {
    if case .board(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    if case .remove(let id) = action { state.boards[id: id] = nil }
    return .none
  }

  static func feature(_ tasks: ParkedTasks) -> Composed<Boards> {
    Boards().forEach(\.boards, action: boardCase, element: Board.feature(tasks))
  }
}

/// Each composed child's effect ids are its own: cancelling in one row or
/// one embedded copy never reaches a sibling, a parent's `.cancel(id:)`
/// reaches only its own effects, and removing a child still cancels what
/// it runs.
final class ChildEffectIDsTests: XCTestCase {
  private func boardStore(_ tasks: ParkedTasks) -> ActionStore<Board.Feature> {
    ActionStore(initialState: Board.State(id: "B"), reducer: Board.feature(tasks))
  }

  /// Starts every ticker's timer and the board's own, and waits until all
  /// six run (`parkedBefore`: how many tasks parked before).
  private func startAll(
    _ store: ActionStore<Board.Feature>, _ tasks: ParkedTasks, parkedBefore: Int = 0
  ) async -> [StoreTask] {
    let started = [
      store.send(.row(id: "B row 1", action: .start)), store.send(.row(id: "B row 2", action: .start)),
      store.send(.left(.start)), store.send(.right(.start)), store.send(.detail(.start)), store.send(.startOwn),
    ]
    await tasks.waitUntilParked(parkedBefore + 6)
    XCTAssertEqual(tasks.parked, Board.timers(of: "B"))
    return started
  }

  func testStoppingOneRowLeavesTheOtherRowAndTheEmbeddedCopiesRunning() async {
    let tasks = ParkedTasks()
    let store = boardStore(tasks)
    let started = await startAll(store, tasks)

    await store.send(.row(id: "B row 1", action: .stop)).finish()
    XCTAssertEqual(tasks.cancelled, ["B row 1 timer"])
    await started[0].finish()
    XCTAssertEqual(store.effectsInFlight, 5)
    XCTAssertEqual(store.state.rows[id: "B row 1"]?.ticking, false)
    XCTAssertEqual(store.state.rows[id: "B row 2"]?.ticking, true)

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testStoppingOneOfTwoEmbeddedCopiesLeavesTheOtherRunning() async {
    let tasks = ParkedTasks()
    let store = boardStore(tasks)
    let started = await startAll(store, tasks)

    await store.send(.left(.stop)).finish()
    XCTAssertEqual(tasks.cancelled, ["B left timer"])
    await started[2].finish()
    await store.send(.right(.stop)).finish()
    XCTAssertEqual(tasks.cancelled, ["B left timer", "B right timer"])
    await started[3].finish()
    XCTAssertEqual(tasks.parked, ["B detail timer", "B own timer", "B row 1 timer", "B row 2 timer"])

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testStoppingTheOptionalChildLeavesTheOthersRunning() async {
    let tasks = ParkedTasks()
    let store = boardStore(tasks)
    let started = await startAll(store, tasks)

    await store.send(.detail(.stop)).finish()
    XCTAssertEqual(tasks.cancelled, ["B detail timer"])
    await started[4].finish()
    XCTAssertEqual(store.effectsInFlight, 5)

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testAParentsCancelReachesItsOwnEffectOnlyAndAChildsNeverReachesTheParents() async {
    let tasks = ParkedTasks()
    let store = boardStore(tasks)
    let started = await startAll(store, tasks)

    for stop: Board.Action in [
      .row(id: "B row 1", action: .stop), .row(id: "B row 2", action: .stop), .left(.stop), .right(.stop),
      .detail(.stop),
    ] {
      await store.send(stop).finish()
    }
    XCTAssertEqual(tasks.parked, ["B own timer"], "no child's cancel reached the parent's timer")
    await store.send(.stopOwn).finish()
    XCTAssertEqual(tasks.parked, [])
    for task in started { await task.finish() }
    XCTAssertEqual(store.effectsInFlight, 0)

    // And the other way round: the parent's cancel leaves the children's.
    let restarted = await startAll(store, tasks, parkedBefore: 6)
    await store.send(.stopOwn).finish()
    XCTAssertEqual(tasks.cancelled.last, "B own timer")
    await restarted[5].finish()
    XCTAssertEqual(tasks.parked, Board.timers(of: "B").filter { $0 != "B own timer" })

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testRemovingARowOrTheOptionalChildStillCancelsWhatItRuns() async {
    let tasks = ParkedTasks()
    let store = boardStore(tasks)
    let started = await startAll(store, tasks)
    let download = store.send(.row(id: "B row 2", action: .download))
    await tasks.waitUntilParked(7)

    await store.send(.removeRow("B row 2")).finish()
    XCTAssertEqual(Set(tasks.cancelled), ["B row 2 timer", "B row 2 download"])
    await started[1].finish()
    await download.finish()
    await store.send(.dismissDetail).finish()
    XCTAssertEqual(tasks.cancelled.last, "B detail timer")
    await started[4].finish()
    XCTAssertEqual(tasks.parked, ["B left timer", "B own timer", "B right timer", "B row 1 timer"])

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testCancellingInFlightReplacesThatRowsTimerOnly() async {
    let tasks = ParkedTasks()
    let store = boardStore(tasks)
    _ = await startAll(store, tasks)
    _ = store.send(.row(id: "B row 1", action: .download))
    await tasks.waitUntilParked(7)

    // The restart's cancellation in flight is for the timer id, in row 1:
    // not row 1's download (marked, like the timer, with the row's place),
    // not row 2's timer, nor the parent's.
    // Its new timer parks after the reduction that cancelled the old one.
    store.send(.row(id: "B row 1", action: .restart))
    await tasks.waitUntilParked(8)
    XCTAssertEqual(tasks.cancelled, ["B row 1 timer"])
    XCTAssertEqual(tasks.parked, (Board.timers(of: "B") + ["B row 1 download"]).sorted())
    store.send(.left(.restart))
    await tasks.waitUntilParked(9)
    XCTAssertEqual(tasks.cancelled, ["B row 1 timer", "B left timer"])

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testIDsAreScopedAtEveryLevelOfNesting() async {
    let tasks = ParkedTasks()
    let store = ActionStore(initialState: Boards.State(), reducer: Boards.feature(tasks))
    for board in ["A", "B"] {
      store.send(.board(id: board, action: .row(id: "\(board) row 1", action: .start)))
      store.send(.board(id: board, action: .left(.start)))
      store.send(.board(id: board, action: .startOwn))
    }
    await tasks.waitUntilParked(6)

    await store.send(.board(id: "A", action: .row(id: "A row 1", action: .stop))).finish()
    await store.send(.board(id: "B", action: .left(.stop))).finish()
    await store.send(.board(id: "A", action: .stopOwn)).finish()
    XCTAssertEqual(tasks.cancelled, ["A row 1 timer", "B left timer", "A own timer"])
    XCTAssertEqual(tasks.parked, ["A left timer", "B own timer", "B row 1 timer"])

    // Removing a board cancels what runs anywhere inside it, and only that.
    await store.send(.remove("A")).finish()
    XCTAssertEqual(tasks.parked, ["B own timer", "B row 1 timer"])
    XCTAssertEqual(tasks.cancelled.last, "A left timer")

    store.cancelAllEffects()
    await store.waitUntilIdle()
  }

  func testAScopedIDEqualsOnlyTheSameIDInTheSameScope() {
    let row1 = EffectID(ChildEffects(owner: \Board.State.rows, element: "row 1"))
    let row2 = EffectID(ChildEffects(owner: \Board.State.rows, element: "row 2"))
    let timer = EffectID(Ticker.CancelID.timer)
    XCTAssertEqual(timer.scoped(in: row1), EffectID(Ticker.CancelID.timer).scoped(in: row1))
    XCTAssertNotEqual(timer.scoped(in: row1), timer.scoped(in: row2))
    XCTAssertNotEqual(timer.scoped(in: row1), timer)
    XCTAssertNotEqual(timer.scoped(in: row1).scoped(in: row2), timer.scoped(in: row2).scoped(in: row1))
    XCTAssertEqual(Set([timer, timer.scoped(in: row1), timer.scoped(in: row2), timer.scoped(in: row1)]).count, 3)
  }
}
