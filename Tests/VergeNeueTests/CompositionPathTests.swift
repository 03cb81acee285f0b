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

/// Whether `StateField` resolved a child's state to its offset.
private struct IsStored<Root, Value>: ChildStateMaker {
  typealias Made = Bool

  func callAsFunction<Place: ChildState<Root, Value>>(_ place: Place) -> Bool {
    Place.self == StoredChildState<Root, Value>.self
  }
}

/// `WrappedList` stored, and behind one more computed property.
private struct Boxed: Equatable, Sendable {
  var list = WrappedList()
  var view: WrappedList {
    get { list }
    set { list = newValue }
  }
}

/// A method reducer of `WrappedList` with no methods: its scope's scopes
/// do the writing.
private final class WrappedListReducer: ReducerType {
  typealias TargetState = WrappedList
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
    XCTAssertTrue(StateField(\WrappedList.inner.counter).resolved(IsStored()))
    XCTAssertFalse(StateField(\WrappedList.rows).resolved(IsStored()))
    XCTAssertFalse(StateField(\WrappedList.detail).resolved(IsStored()))
  }

  func testAnAppendedFieldHasAnOffsetOnlyWhenEveryPartIsStored() {
    let counter = StateField(\WrappedList.inner.counter)
    let stored = StateField(\Boxed.list).appending(counter)
    XCTAssertEqual(stored.stored?.offset, StateField(\Boxed.list.inner.counter).stored?.offset)
    XCTAssertNotNil(stored.stored)
    XCTAssertNil(StateField(\Boxed.view).appending(counter).stored)
  }

  func testBothKindsOfFieldWriteAndReadTheSamePart() {
    let counter = StateField(\WrappedList.inner.counter)
    let stored = StateField(\Boxed.list).appending(counter)
    let computed = StateField(\Boxed.view).appending(counter)
    var boxed = Boxed()
    computed.modify(&boxed) { $0.city = "Kyoto" }
    stored.modify(&boxed) { $0.city += ", Japan" }
    XCTAssertEqual(boxed.list.inner.counter.city, "Kyoto, Japan")
    XCTAssertEqual(computed.read(boxed).city, "Kyoto, Japan")
    XCTAssertEqual(stored.read(boxed).city, "Kyoto, Japan")
  }

  func testScopesWriteThroughAComputedPropertyAndScopesOfIt() {
    let store = Store<Boxed, Never>(initialState: Boxed())
    let wrapped = store.scope(\.view, reducer: WrappedListReducer())
    wrapped.scope(\.inner.counter, reducer: AddressReducer()).commit { $0.move(to: "Kyoto") }
    XCTAssertEqual(store.state.list.inner.counter.city, "Kyoto")
    wrapped.scope(\.inner.counter, reducer: AddressFeature()).send(.move("Osaka"))
    XCTAssertEqual(store.state.list.inner.counter.city, "Osaka")
    store.scope(\.view.inner.counter, reducer: AddressFeature()).send(.move("Nara"))
    XCTAssertEqual(store.state.list.inner.counter.city, "Nara")
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
