import Verge
import VergeTestSupport
import XCTest

@testable import VergeNeue

/// A row whose task waits for the gate its action carries, so that a test
/// decides which tasks are still running.
private struct WaitingRow: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var done = false
  }
  enum Action: Sendable {
    case work(Gate)
    case done
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .work(let gate):
      return .run { send in
        await gate.wait()
        send(.done)
      }
    case .done:
      state.done = true
      return .none
    }
  }
}

private struct WaitingList: ActionReducer {
  struct State: Equatable, Sendable {
    var rows = IdentifiedArrayOf<WaitingRow.State>(uniqueElements: (1...4).map { WaitingRow.State(id: $0) })
    /// The rows whose task reported back, as the parent saw it.
    var finished: [Int] = []
  }
  enum Action: Sendable {
    case row(id: Int, action: WaitingRow.Action)
    case remove(Int)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: WaitingRow.Action)>({ .row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .remove(let id): state.rows[id: id] = nil
    case .row(let id, .done): state.finished.append(id)
    case .row: break
    }
    return .none
  }
}

/// `forEach` looks for removed rows only while some row's task may run
/// (holding the ids' storage across the parent's reduction would make a
/// removal copy the path it writes). These tests pin the other side: a
/// removal while a task runs still cancels it, however many tasks started
/// and ended before.
final class ForEachRunningTasksTests: XCTestCase {
  private func makeStore(rows: Int = 4) -> ActionStore<Composed<WaitingList>> {
    ActionStore(
      initialState: WaitingList.State(
        rows: IdentifiedArrayOf(uniqueElements: (1...rows).map { WaitingRow.State(id: $0) })),
      reducer: WaitingList().forEach(\.rows, action: WaitingList.rowCase, element: WaitingRow()))
  }

  func testARemovalAfterEarlierTasksEndedStillCancelsARunningTask() async {
    let store = makeStore()
    let first = Gate()
    let finished = store.send(.row(id: 1, action: .work(first)))
    first.open()
    await finished.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.rows[id: 1]?.done, true)

    let second = Gate()
    let cancelled = store.send(.row(id: 2, action: .work(second)))
    XCTAssertEqual(store.effectsInFlight, 1)
    store.send(.remove(2))
    second.open()
    await cancelled.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.effectsInFlight, 0)
    XCTAssertNil(store.state.rows[id: 2])
    XCTAssertEqual(store.state.finished, [1], "the removed row's task was cancelled and sent nothing")
  }

  func testEachEndingTaskCountsOnce() async {
    let store = makeStore()
    let quick = Gate()
    let slow = Gate()
    let ended = store.send(.row(id: 1, action: .work(quick)))
    let cancelled = store.send(.row(id: 2, action: .work(slow)))
    let alsoEnded = store.send(.row(id: 3, action: .work(quick)))
    quick.open()
    await ended.finish()
    await alsoEnded.finish()
    // Two of three tasks ended; the third must still be found and cancelled.
    store.send(.remove(2))
    slow.open()
    await cancelled.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.rows.map(\.done), [true, true, false])
    XCTAssertEqual(Array(store.state.rows.ids), [1, 3, 4])
    XCTAssertEqual(store.state.finished.sorted(), [1, 3], "the removed row's task was cancelled and sent nothing")
  }

  func testARemovalWhileNoTaskRunsWritesTheIDsInPlace() async {
    // Enough rows that the id trie's root holds children: a removal below
    // it writes the root in place unless another copy shares it.
    let store = makeStore(rows: 1_000)
    // A task that ran and ended leaves nothing to look for.
    let gate = Gate()
    gate.open()
    await store.send(.row(id: 1, action: .work(gate))).finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.finished, [1])
    let rootBefore = ObjectIdentifier(store.state.rows.idStorage.root)
    store.send(.remove(3))
    XCTAssertNil(store.state.rows[id: 3])
    XCTAssertEqual(store.state.rows.count, 999)
    // Had forEach held the ids' storage across the parent's reduction, the
    // removal would have copied the root while the old one was alive, so
    // the new root would sit at another address.
    XCTAssertEqual(ObjectIdentifier(store.state.rows.idStorage.root), rootBefore)
  }

  func testARemovalWhileATaskRunsLeavesTheEarlierIDsIntact() async {
    let store = makeStore(rows: 1_000)
    let gate = Gate()
    let running = store.send(.row(id: 1, action: .work(gate)))
    let rootBefore = ObjectIdentifier(store.state.rows.idStorage.root)
    store.send(.remove(3))
    XCTAssertNotEqual(
      ObjectIdentifier(store.state.rows.idStorage.root), rootBefore,
      "while a task runs, the ids before the parent's reduction are kept to find what it removed")
    gate.open()
    await running.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.rows[id: 1]?.done, true)
  }
}
