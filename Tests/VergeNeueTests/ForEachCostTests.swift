import Synchronization
import VergeTestSupport
import XCTest

@testable import VergeNeue

/// A row whose id counts how often it is read, so that a test can tell
/// whether composition looked at every row.
struct CountedRow: Equatable, Sendable, Identifiable {
  static let idReads = Atomic<Int>(0)

  let storedID: Int
  var title = ""

  var id: Int {
    Self.idReads.add(1, ordering: .relaxed)
    return storedID
  }
}

/// A row feature that renames its row or starts a save waiting for a gate.
struct CountedRowFeature: ActionReducer {
  enum Action: Sendable, Equatable { case rename(String), save, saved }
  let gate: Gate

  func reduce(into state: inout CountedRow, action: Action) -> Effect<Action, Never> {
    switch action {
    case .rename(let title):
      state.title = title
      return .none
    case .save:
      return .run { [gate] send in
        await gate.wait()
        send(.saved)
      }
    case .saved:
      state.title += " (saved)"
      return .none
    }
  }
}

/// A list of many rows and a counter unrelated to them.
struct CountedListFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<CountedRow>
    var unrelated = 0
    var savedIDs: [Int] = []
  }
  enum Action: Sendable, Equatable {
    case tick
    case remove(Int)
    case reverseRows
    case replaceRows([Int])
    case row(id: Int, action: CountedRowFeature.Action)
  }
  typealias Activity = Never

  static let rowCase = ActionCase<Action, (id: Int, action: CountedRowFeature.Action)>(
    { Action.row(id: $0.id, action: $0.action) }
  ) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .tick:
      state.unrelated += 1
    case .remove(let id):
      state.rows.remove(id: id)
    case .reverseRows:
      state.rows.reverse()
    case .replaceRows(let ids):
      state.rows = IdentifiedArrayOf(uniqueElements: ids.map { CountedRow(storedID: $0) })
    case .row(let id, .saved):
      state.savedIDs.append(id)
    case .row:
      break
    }
    return .none
  }
}

/// `forEach` over an `IdentifiedArray` costs what the action touches: the
/// row's id is read a bounded number of times, never once per row.
final class ForEachCostTests: XCTestCase {
  private static let size = 10_000

  private func makeStore(gate: Gate = Gate()) -> ActionStore<Composed<CountedListFeature>> {
    let rows = IdentifiedArrayOf(uniqueElements: (0..<Self.size).map { CountedRow(storedID: $0) })
    return ActionStore(
      initialState: CountedListFeature.State(rows: rows),
      reducer: CountedListFeature().forEach(\.rows, action: CountedListFeature.rowCase, element: CountedRowFeature(gate: gate)))
  }

  private func idReads(during body: () -> Void) -> Int {
    let before = CountedRow.idReads.load(ordering: .relaxed)
    body()
    return CountedRow.idReads.load(ordering: .relaxed) - before
  }

  func testAnUnrelatedActionReadsNoRow() {
    let store = makeStore()
    XCTAssertEqual(idReads { store.send(.tick) }, 0)
    XCTAssertEqual(store.state.unrelated, 1)
  }

  func testARowActionReadsItsRowOnly() {
    let store = makeStore()
    let reads = idReads { store.send(.row(id: 7_777, action: .rename("found"))) }
    XCTAssertLessThanOrEqual(reads, 2, "found by id, not by scanning \(Self.size) rows")
    XCTAssertEqual(store.state.rows[id: 7_777]?.title, "found")
    XCTAssertEqual(idReads { store.send(.row(id: -1, action: .rename("nobody"))) }, 0, "an action for a missing row is ignored")
  }

  func testRemovingARowReadsAFewRowsAndCancelsItsEffect() async {
    let gate = Gate()
    let store = makeStore(gate: gate)
    let doomed = store.send(.row(id: 42, action: .save))
    let kept = store.send(.row(id: 43, action: .save))
    XCTAssertEqual(store.effectsInFlight, 2)
    let reads = idReads { store.send(.remove(42)) }
    XCTAssertLessThanOrEqual(reads, 4, "a removal touches the removed row, not all rows")
    gate.open()
    await doomed.finish()
    await kept.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.savedIDs, [43], "the removed row's effect was cancelled, the other one ran")
    XCTAssertEqual(store.state.rows[id: 43]?.title, " (saved)")
    XCTAssertNil(store.state.rows[id: 42])
  }

  func testMovedRowsKeepTheirEffectsAndReplacedRowsLoseThem() async {
    let gate = Gate()
    let store = makeStore(gate: gate)
    let first = store.send(.row(id: 1, action: .save))
    let second = store.send(.row(id: 2, action: .save))
    let third = store.send(.row(id: 3, action: .save))
    store.send(.reverseRows)
    XCTAssertEqual(store.state.rows.first?.storedID, Self.size - 1)
    store.send(.remove(3))
    store.send(.replaceRows([1, 4]))
    gate.open()
    await first.finish()
    await second.finish()
    await third.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(
      store.state.savedIDs, [1],
      "row 1 was moved and kept its effect; row 2 left with the replacement, row 3 by removal")
    XCTAssertEqual(store.state.rows.map(\.title), [" (saved)", ""])
  }
}
