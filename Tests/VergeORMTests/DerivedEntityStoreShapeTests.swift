import VergeORM
import VergeNeue
import XCTest

/// Renames an author in a library.
private func renamed(_ state: inout LibraryState, _ name: String) {
  state.library.performBatchUpdates { context in
    _ = try? context.entities.author.update(.init("a1")) { $0.name = name }
  }
}

private func seeded() -> LibraryState {
  var state = LibraryState()
  state.library.performBatchUpdates { context in
    context.entities.author.insert([Author(rawID: "a1", name: "Ursula"), Author(rawID: "a2", name: "Iain")])
    let book = context.entities.book.insert(Book(rawID: "b1", authorID: .init("a1")))
    try? context.indexes.allBooks.append(book.entityID)
  }
  return state
}

private struct ShelfFeature: ActionReducer {
  typealias State = LibraryState
  enum Action: Sendable { case rename(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .rename(let name): renamed(&state, name)
    }
    return .none
  }
}

private struct ShelvesState: Equatable {
  var shelf = seeded()
}

private struct ShelvesFeature: ActionReducer {
  typealias State = ShelvesState
  enum Action: Sendable { case shelf(ShelfFeature.Action) }
  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .shelf(let action): _ = ShelfFeature().reduce(into: &state.shelf, action: action)
    }
    return .none
  }
}

private final class ShelfReducer: ReducerType {
  typealias TargetState = LibraryState
  func rename(_ name: String) -> Mutation { .init { renamed(&$0, name) } }
}

private final class ShelfModel: StoreComponentType {
  let store = Store<LibraryState, Never>(initialState: seeded())
}

/// `derivedEntity`, `derivedNonNullEntity` and `derivedEntities` come from
/// `ReadableStore`, so each store shape offers them with the same call.
final class DerivedEntityStoreShapeTests: XCTestCase {
  /// Checks three derived values made on one store shape, before and after
  /// `rename` changes author a1 through that shape.
  private func assertFollows(
    author: Derived<Author?>, nonNull: Derived<Author>, shelf: Derived<[Book]>,
    rename: (String) -> Void, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(author.value?.name, "Ursula", file: file, line: line)
    XCTAssertEqual(shelf.value.map(\.rawID), ["b1"], file: file, line: line)
    let wakes = LockedCounter()
    let subscription = author.sinkState(dropsFirst: true) { _ in wakes.increment() }
    rename("Le Guin")
    XCTAssertEqual(author.value?.name, "Le Guin", file: file, line: line)
    XCTAssertEqual(nonNull.value.name, "Le Guin", file: file, line: line)
    XCTAssertEqual(wakes.value, 1, file: file, line: line)
    withExtendedLifetime(subscription) {}
  }

  func testActionStore() throws {
    let store = ActionStore(initialState: seeded(), reducer: ShelfFeature())
    assertFollows(
      author: store.derivedEntity(Author.EntityID("a1"), in: \.library),
      nonNull: try store.derivedNonNullEntity(Author.EntityID("a1"), in: \.library),
      shelf: store.derivedEntities(in: \.library, orderedBy: \.allBooks),
      rename: { store.send(.rename($0)) })
  }

  func testReducerStore() throws {
    let store = ReducerStore(initialState: seeded(), reducer: ShelfReducer())
    assertFollows(
      author: store.derivedEntity(Author.EntityID("a1"), in: \.library),
      nonNull: try store.derivedNonNullEntity(Author.EntityID("a1"), in: \.library),
      shelf: store.derivedEntities(in: \.library, orderedBy: \.allBooks),
      rename: { name in store.commit { $0.rename(name) } })
  }

  func testScopedStore() throws {
    let root = Store<ShelvesState, Never>(initialState: ShelvesState())
    let scope = root.scope(\.shelf, reducer: ShelfReducer())
    assertFollows(
      author: scope.derivedEntity(Author.EntityID("a1"), in: \.library),
      nonNull: try scope.derivedNonNullEntity(Author.EntityID("a1"), in: \.library),
      shelf: scope.derivedEntities(in: \.library, orderedBy: \.allBooks),
      rename: { name in scope.commit { $0.rename(name) } })
  }

  func testScopedActionStore() throws {
    let root = ActionStore(initialState: ShelvesState(), reducer: ShelvesFeature())
    let scope = root.scope(state: \.shelf, action: ShelvesFeature.Action.shelf)
    assertFollows(
      author: scope.derivedEntity(Author.EntityID("a1"), in: \.library),
      nonNull: try scope.derivedNonNullEntity(Author.EntityID("a1"), in: \.library),
      shelf: scope.derivedEntities(in: \.library, orderedBy: \.allBooks),
      rename: { scope.send(.rename($0)) })
  }

  func testStoreComponent() throws {
    let model = ShelfModel()
    assertFollows(
      author: model.derivedEntity(Author.EntityID("a1"), in: \.library),
      nonNull: try model.derivedNonNullEntity(Author.EntityID("a1"), in: \.library),
      shelf: model.derivedEntities(in: \.library, orderedBy: \.allBooks),
      rename: { name in model.commit { $0.modify { renamed(&$0, name) } } })
  }

  func testAnUnrelatedEntityDoesNotWakeAScopesDerivedEntity() {
    let root = ActionStore(initialState: ShelvesState(), reducer: ShelvesFeature())
    let scope = root.scope(state: \.shelf, action: ShelvesFeature.Action.shelf)
    let other = scope.derivedEntity(Author.EntityID("a2"), in: \.library)
    let wakes = LockedCounter()
    let subscription = other.sinkState(dropsFirst: true) { _ in wakes.increment() }
    scope.send(.rename("x"))
    XCTAssertEqual(wakes.value, 0)
    XCTAssertEqual(other.value?.name, "Iain")
    withExtendedLifetime(subscription) {}
  }
}
