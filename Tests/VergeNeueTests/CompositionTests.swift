import VergeTestSupport
import XCTest

@testable import VergeNeue

/// One row of a list: a title, and a save that waits for a gate.
struct RowFeature: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var title = ""
    var saved = false
  }
  enum Action: Sendable, Equatable { case rename(String), save, saved, delete, archive }

  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .rename(let title):
      state.title = title
      return .none
    case .save, .archive:
      return .run { [gate] send in
        await gate.wait()
        send(.saved)
      }
    case .saved:
      state.saved = true
      return .none
    case .delete:
      return .none
    }
  }
}

/// A list of rows, a counter embedded on a part, and an optional detail.
struct ListFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<RowFeature.State> = []
    var detail: RowFeature.State?
    var counter = Address()
    var deletions = 0
    var savedRows: [Int] = []
  }
  enum Action: Sendable, Equatable {
    case add(Int)
    case row(id: Int, action: RowFeature.Action)
    case detail(RowFeature.Action)
    case address(AddressFeature.Action)
    case openDetail(Int), closeDetail
  }

  static let rowCase = ActionCase<Action, (id: Int, action: RowFeature.Action)>({ Action.row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
  static let detailCase = ActionCase<Action, RowFeature.Action>(Action.detail) {
    if case .detail(let action) = $0 { action } else { nil }
  }
  static let addressCase = ActionCase<Action, AddressFeature.Action>(Action.address) {
    if case .address(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .add(let id):
      state.rows.append(.init(id: id))
    case .row(let id, .delete), .row(let id, .archive):   // the parent reacts to a row's action
      state.rows.remove(id: id)
      state.deletions += 1
    case .row(let id, .saved):
      state.savedRows.append(id)
    case .detail(.saved):
      state.savedRows.append(state.detail?.id ?? -1)
    case .openDetail(let id):
      state.detail = .init(id: id)
    case .closeDetail:
      state.detail = nil
    case .row, .detail, .address:
      break
    }
    return .none
  }
}

func listFeature(gate: Gate) -> Composed<Composed<Composed<ListFeature>>> {
  ListFeature()
    .embed(AddressFeature(), state: \.counter, action: ListFeature.addressCase)
    .forEach(\.rows, action: ListFeature.rowCase, element: RowFeature(gate: gate))
    .ifLet(\.detail, action: ListFeature.detailCase, then: RowFeature(gate: gate))
}

final class CompositionTests: XCTestCase {
  func testAnEmbeddedChildChangesItsPartAndTheParentSeesItsAction() {
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: Gate()))
    let sent = Collected<ListFeature.Action>()
    let observation = store.observeEvents { event in
      if case .reduced(let action, _, _, _) = event { sent.append(action) }
    }
    store.send(.address(.move("Kyoto")))
    XCTAssertEqual(store.state.counter.city, "Kyoto")
    XCTAssertEqual(sent.all, [.address(.move("Kyoto"))])
    observation.cancel()
  }

  func testEachElementRunsItsOwnFeatureAndTheParentReactsToARowsDelete() {
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: Gate()))
    store.send(.add(1))
    store.send(.add(2))
    store.send(.row(id: 2, action: .rename("two")))
    XCTAssertEqual(store.state.rows.map(\.title), ["", "two"])
    store.send(.row(id: 1, action: .delete))
    XCTAssertEqual(store.state.rows.map(\.id), [2])
    XCTAssertEqual(store.state.deletions, 1)
    store.send(.row(id: 1, action: .rename("gone")))
    XCTAssertEqual(store.state.rows.map(\.title), ["two"], "an action for a removed row is ignored")
  }

  func testAChildsEffectSendsBackThroughTheParent() async {
    let gate = Gate()
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: gate))
    store.send(.add(7))
    let saving = store.send(.row(id: 7, action: .save))
    gate.open()
    await saving.finish()
    XCTAssertEqual(store.state.rows.first?.saved, true, "the effect's .saved reached the row")
    XCTAssertEqual(store.state.savedRows, [7], "and the parent saw it as .row(id: 7, action: .saved)")
  }

  func testRemovingAnElementCancelsItsEffects() async {
    let gate = Gate()
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: gate))
    store.send(.add(1))
    store.send(.add(2))
    let first = store.send(.row(id: 1, action: .save))
    let second = store.send(.row(id: 2, action: .save))
    XCTAssertEqual(store.effectsInFlight, 2)
    store.send(.row(id: 1, action: .delete))
    gate.open()
    await first.finish()
    await second.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.savedRows, [2], "the removed row's effect was cancelled, the other one ran")
  }

  func testAnElementRemovedByTheActionThatStartsItsEffectStartsNothing() async {
    let gate = Gate()
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: gate))
    store.send(.add(1))
    let archiving = store.send(.row(id: 1, action: .archive))
    XCTAssertEqual(store.effectsInFlight, 0)
    gate.open()
    await archiving.finish()
    XCTAssertEqual(store.state.savedRows, [])
  }

  func testAnOptionalChildRunsWhilePresentAndSettingItToNilCancelsItsEffects() async {
    let gate = Gate()
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: gate))
    store.send(.detail(.rename("ignored")))
    XCTAssertNil(store.state.detail, "a child action while absent is ignored")
    store.send(.openDetail(3))
    store.send(.detail(.rename("three")))
    XCTAssertEqual(store.state.detail?.title, "three")
    let saving = store.send(.detail(.save))
    XCTAssertEqual(store.effectsInFlight, 1)
    store.send(.closeDetail)
    gate.open()
    await saving.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.effectsInFlight, 0)
    XCTAssertEqual(store.state.savedRows, [], "the cancelled effect sent nothing")
  }

  func testAScopeOfARowSendsThroughTheRoot() {
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: Gate()))
    store.send(.add(5))
    let row = store.scope(state: \.rows[0]) { ListFeature.Action.row(id: 5, action: $0) }
    row.send(.rename("five"))
    XCTAssertEqual(row.state.title, "five")
    row.send(.delete)
    XCTAssertEqual(store.state.deletions, 1)
  }
}
