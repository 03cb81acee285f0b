import Verge
import XCTest

/// Verge's own spellings that its documentation teaches, beyond the
/// article's snippets: each compiles as written and does what Verge's does.
final class VergeNamesTests: XCTestCase {
  struct Todos: Equatable {
    var items: [String] = []
    var name = ""
    var selection: String?
  }

  final class TodosViewModel: StoreComponentType {
    typealias State = Todos
    let store: DefaultStore = .init(initialState: .init())
  }

  // MARK: A commit closure's `InoutRef`

  /// Verge declares the closure's parameter `inout`; here it is not (see
  /// Coming from Verge): a helper takes the `InoutRef` itself, and writes
  /// through it count as the commit's.
  func testAHelperTakingInoutRefIsCalledWithTheCommitsParameter() {
    func rename(_ state: InoutRef<Todos>, to name: String) {
      state.name = name
    }
    let store = Store<Todos, Never>(initialState: .init())
    var deliveries = 0
    let subscription = store.sinkState(dropsFirst: true) { _ in deliveries += 1 }
    store.commit { rename($0, to: "groceries") }
    store.commit { (state: InoutRef<Todos>) in state.items.append("milk") }
    XCTAssertEqual(store.state.name, "groceries")
    XCTAssertEqual(store.state.items, ["milk"])
    XCTAssertEqual(deliveries, 2, "the helper's write counts as the commit's")
    withExtendedLifetime(subscription) {}
  }

  func testAViewModelsCommitReturnsAndThrowsAsAStores() throws {
    let viewModel = TodosViewModel()
    viewModel.commit { $0.items = ["a", "b"] }
    let count = viewModel.commit { state -> Int in
      state.items.removeLast()
      return state.items.count
    }
    XCTAssertEqual(count, 1)
    struct Refused: Error {}
    XCTAssertThrowsError(
      try viewModel.commit { state throws in
        state.items = []
        throw Refused()
      })
    XCTAssertEqual(viewModel.state.items, ["a"], "a commit that throws leaves the state as it was")
  }

  // MARK: Changes

  func testPrimitiveAndPreviousPrimitiveAreTheStates() {
    let changes = Changes(previous: Todos(name: "old"), current: Todos(name: "new"), version: 3)
    XCTAssertEqual(changes.primitive.name, "new")
    XCTAssertEqual(changes.previousPrimitive?.name, "old")
    XCTAssertNil(Changes(previous: nil, current: Todos(), version: 0).previousPrimitive)

    let store = Store<Todos, Never>(initialState: .init(name: "n"))
    XCTAssertEqual(store.state.primitive, Todos(name: "n"))
  }

  func testDroppedPreviousMakesEveryIfChangedRun() {
    let changes = Changes(previous: Todos(name: "same"), current: Todos(name: "same"), version: 7)
    var ran: [String] = []
    changes.ifChanged(\.name) { ran.append("kept: \($0)") }
    let dropped = changes.droppedPrevious()
    dropped.ifChanged(\.name) { ran.append("dropped: \($0)") }
    XCTAssertEqual(ran, ["dropped: same"])
    XCTAssertNil(dropped.previous)
    XCTAssertEqual(dropped.version, 7)
    XCTAssertTrue(dropped.hasChanges(\.name))
  }

  func testHasChangesAndNoChanges() {
    let changes = Changes(previous: Todos(items: ["a"], name: "x"), current: Todos(items: ["a"], name: "y"))
    XCTAssertTrue(changes.hasChanges(\.name))
    XCTAssertFalse(changes.hasChanges(\.items))
    XCTAssertFalse(changes.hasChanges({ $0.name.count + $0.items.count }))
    XCTAssertTrue(changes.hasChanges({ $0.name }))
    XCTAssertTrue(changes.noChanges(\.items))
    XCTAssertFalse(changes.noChanges(\.name))
    let first = Changes(previous: nil, current: Todos())
    XCTAssertTrue(first.hasChanges(\.items), "a first delivery has changed everything")
    XCTAssertFalse(first.noChanges(\.items))
  }

  func testMapWithAClosureAndMapIfPresent() {
    let changes = Changes(
      previous: Todos(items: ["a"], selection: "a"), current: Todos(items: ["a", "b"], selection: nil), version: 2)
    let counts = changes.map { $0.items.count }
    XCTAssertEqual(counts.previous, 1)
    XCTAssertEqual(counts.current, 2)
    XCTAssertEqual(counts.version, 2)
    // The key-path form still reads as before.
    XCTAssertEqual(changes.map(\.items).current, ["a", "b"])

    XCTAssertNil(changes.mapIfPresent(\.selection), "the new state has no selection")
    let selected = Changes(previous: Todos(selection: nil), current: Todos(selection: "b")).mapIfPresent(\.selection)
    XCTAssertEqual(selected?.current, "b")
    XCTAssertNil(selected?.previous)
    var shown: [String] = []
    selected?.ifChanged(\.self) { shown.append($0) }
    XCTAssertEqual(shown, ["b"])
  }

  // MARK: Derived

  func testSinkChangedPrimitiveValueGetsEachNewValue() {
    let store = Store<Todos, Never>(initialState: .init())
    let count = store.derived(.map { $0.items.count })
    var values: [Int] = []
    let subscription = count.sinkChangedPrimitiveValue { values.append($0) }
    store.commit { $0.items.append("a") }
    store.commit { $0.name = "unrelated" }
    store.commit { $0.items.append("b") }
    XCTAssertEqual(values, [0, 1, 2])
    withExtendedLifetime(subscription) {}
  }
}
