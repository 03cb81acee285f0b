import VergeTestSupport
import XCTest

@testable import VergeNeue

/// `ListFeature`'s state behind computed properties, and a part two stored
/// properties deep: composition reaches stored properties through their
/// offset and computed ones through their key path.
struct WrappedList: Equatable, Sendable {
  var inner = ListFeature.State()
  var rows: IdentifiedArrayOf<RowFeature.State> {
    get { inner.rows }
    set { inner.rows = newValue }
  }
  var detail: RowFeature.State? {
    get { inner.detail }
    set { inner.detail = newValue }
  }
}

struct WrappedListFeature: ActionReducer {
  typealias State = WrappedList
  typealias Action = ListFeature.Action

  func reduce(into state: inout WrappedList, action: Action) -> Effect<Action, Activity> {
    ListFeature().reduce(into: &state.inner, action: action)
  }
}

/// Whether `ChildStateMaker` chose to reach a child's state through its
/// offset.
private struct IsStored<Root, Value>: ChildStateMaker {
  typealias Made = Bool

  func callAsFunction<Place: ChildState<Root, Value>>(_ place: Place) -> Bool {
    Place.self == StoredChildState<Root, Value>.self
  }
}

final class CompositionPathTests: XCTestCase {
  private func wrappedStore(gate: Gate) -> ActionStore<Composed<Composed<Composed<WrappedListFeature>>>> {
    ActionStore(
      initialState: WrappedList(),
      reducer: WrappedListFeature()
        .embed(AddressFeature(), state: \.inner.counter, action: ListFeature.addressCase)
        .forEach(\.rows, action: ListFeature.rowCase, element: RowFeature(gate: gate))
        .ifLet(\.detail, action: ListFeature.detailCase, then: RowFeature(gate: gate)))
  }

  func testStoredPropertiesAreReachedThroughTheirOffsetAndComputedOnesThroughTheKeyPath() {
    XCTAssertTrue(IsStored<WrappedList, AddressFeature.State>()(at: \WrappedList.inner.counter))
    XCTAssertFalse(IsStored<WrappedList, IdentifiedArrayOf<RowFeature.State>>()(at: \WrappedList.rows))
    XCTAssertFalse(IsStored<WrappedList, RowFeature.State?>()(at: \WrappedList.detail))
  }

  func testANestedStoredPartIsWrittenInPlace() {
    let store = wrappedStore(gate: Gate())
    store.send(.address(.move("Kyoto")))
    XCTAssertEqual(store.state.inner.counter.city, "Kyoto")
  }

  func testForEachOverAComputedPropertyReducesRowsAndCancelsARemovedRowsEffect() async {
    let gate = Gate()
    let store = wrappedStore(gate: gate)
    store.send(.add(1))
    store.send(.add(2))
    store.send(.row(id: 2, action: .rename("two")))
    XCTAssertEqual(store.state.rows.map(\.title), ["", "two"])
    let first = store.send(.row(id: 1, action: .save))
    let second = store.send(.row(id: 2, action: .save))
    store.send(.row(id: 1, action: .delete))
    gate.open()
    await first.finish()
    await second.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.inner.savedRows, [2], "the removed row's effect was cancelled, the other one ran")
  }

  func testIfLetOverAComputedPropertyCancelsWhenItBecomesNil() async {
    let gate = Gate()
    let store = wrappedStore(gate: gate)
    store.send(.openDetail(3))
    store.send(.detail(.rename("three")))
    XCTAssertEqual(store.state.detail?.title, "three")
    let saving = store.send(.detail(.save))
    XCTAssertEqual(store.effectsInFlight, 1)
    store.send(.closeDetail)
    gate.open()
    await saving.finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.inner.savedRows, [], "the cancelled effect sent nothing")
  }

  func testTheEngineForgetsTheIDsOfEffectsThatEnded() async {
    let gate = Gate()
    let store = ActionStore(initialState: ListFeature.State(), reducer: listFeature(gate: gate))
    store.send(.add(1))
    XCTAssertFalse(store.engine.runsCancellableEffects)
    let saving = store.send(.row(id: 1, action: .save))
    XCTAssertTrue(store.engine.runsCancellableEffects, "a row's effect runs under its row's id")
    gate.open()
    await saving.finish()
    await store.waitUntilIdle()
    XCTAssertFalse(store.engine.runsCancellableEffects)
  }
}
