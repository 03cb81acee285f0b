import VergeNeue
import VergeTestSupport
import VergeTesting
import XCTest

/// A timer that runs until cancelled, under an id every copy uses.
private struct Timer: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: String
    var ticking = false
  }
  enum Action: Sendable, Equatable {
    case start
    case stop
  }
  enum CancelID: Hashable, Sendable { case timer }

  let tasks: ParkedTasks

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .start:
      state.ticking = true
      return .run { [tasks, name = state.id] _ in await tasks.park(name) }.cancellable(id: CancelID.timer)
    case .stop:
      state.ticking = false
      return .cancel(id: CancelID.timer)
    }
  }
}

/// Timers in two rows (`forEach`), two embedded copies and an optional one.
private struct Timers: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Timer.State> = [.init(id: "row 1"), .init(id: "row 2")]
    var left = Timer.State(id: "left")
    var right = Timer.State(id: "right")
    var detail: Timer.State? = Timer.State(id: "detail")
  }
  enum Action: Sendable, Equatable {
    case row(id: String, action: Timer.Action)
    case left(Timer.Action)
    case right(Timer.Action)
    case detail(Timer.Action)
    case removeRow(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    if case .removeRow(let id) = action { state.rows[id: id] = nil }
    return .none
  }

  static func feature(_ tasks: ParkedTasks) -> Composed<Composed<Composed<Composed<Timers>>>> {
    Timers()
      .forEach(
        \.rows,
        action: ActionCase({ .row(id: $0.id, action: $0.action) }) {
          if case .row(let id, let action) = $0 { (id, action) } else { nil }
        }, element: Timer(tasks: tasks)
      )
      .embed(
        Timer(tasks: tasks), state: \.left,
        action: ActionCase(Action.left) { if case .left(let action) = $0 { action } else { nil } }
      )
      .embed(
        Timer(tasks: tasks), state: \.right,
        action: ActionCase(Action.right) { if case .right(let action) = $0 { action } else { nil } }
      )
      .ifLet(
        \.detail, action: ActionCase(Action.detail) { if case .detail(let action) = $0 { action } else { nil } },
        then: Timer(tasks: tasks))
  }
}

/// Under a `TestStore`, each composed child's `.cancel(id:)` stops its own
/// effect only: `finish()` then finds nothing running once every child has
/// stopped its own, and nothing was cancelled by a sibling.
final class TestStoreChildEffectIDsTests: XCTestCase {
  func testEachChildsStopCancelsItsOwnTimerOnly() async {
    let log = FailureLog()
    let tasks = ParkedTasks()
    let store = TestStore(initialState: Timers.State(), reducer: Timers.feature(tasks), reporter: log.reporter)
    await store.send(.row(id: "row 1", action: .start)) { $0.rows[id: "row 1"]?.ticking = true }
    await store.send(.row(id: "row 2", action: .start)) { $0.rows[id: "row 2"]?.ticking = true }
    await store.send(.left(.start)) { $0.left.ticking = true }
    await store.send(.right(.start)) { $0.right.ticking = true }
    await store.send(.detail(.start)) { $0.detail?.ticking = true }
    await tasks.waitUntilParked(5)

    await store.send(.row(id: "row 1", action: .stop)) { $0.rows[id: "row 1"]?.ticking = false }
    XCTAssertEqual(tasks.cancelled, ["row 1"])
    await store.send(.left(.stop)) { $0.left.ticking = false }
    XCTAssertEqual(tasks.cancelled, ["row 1", "left"])
    await store.send(.detail(.stop)) { $0.detail?.ticking = false }
    XCTAssertEqual(tasks.cancelled, ["row 1", "left", "detail"])
    XCTAssertEqual(tasks.parked, ["right", "row 2"])

    await store.send(.right(.stop)) { $0.right.ticking = false }
    // Removing a row still cancels what it runs.
    await store.send(.removeRow("row 2")) { $0.rows[id: "row 2"] = nil }
    XCTAssertEqual(tasks.cancelled, ["row 1", "left", "detail", "right", "row 2"])
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }
}
