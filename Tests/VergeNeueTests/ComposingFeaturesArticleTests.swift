import VergeNeue
import XCTest

// Kept in step with the DocC article "Composing features"
// (Sources/VergeNeue/VergeNeue.docc/ComposingFeatures.md).
private struct TodoFeature: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var title: String
    var done = false
  }
  enum Action: Sendable { case toggle, delete, remindLater }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .toggle:
      state.done.toggle()
      return .none
    case .delete:
      return .none                                   // the parent removes the row
    case .remindLater:
      return .run { send in
        try await Task.sleep(for: .seconds(3600))
        send(.toggle)
      }
    }
  }
}

private struct TodosFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var todos: IdentifiedArrayOf<TodoFeature.State> = []
    var editing: TodoFeature.State?
    var nextID = 0
  }
  enum Action: Sendable {
    case add(String)
    case todo(id: Int, action: TodoFeature.Action)
    case editor(TodoFeature.Action)
    case edit(id: Int), stopEditing
  }

  static let todoCase = ActionCase<Action, (id: Int, action: TodoFeature.Action)>({ .todo(id: $0.id, action: $0.action) }) {
    if case .todo(let id, let action) = $0 { (id, action) } else { nil }
  }
  static let editorCase = ActionCase<Action, TodoFeature.Action>(Action.editor) {
    if case .editor(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .add(let title):
      state.todos.append(.init(id: state.nextID, title: title))
      state.nextID += 1
    case .todo(let id, .delete):                     // reacts to a row's action
      state.todos.remove(id: id)
    case .edit(let id):
      state.editing = state.todos[id: id]
    case .stopEditing:
      state.editing = nil
    case .todo, .editor:
      break
    }
    return .none
  }
}

private struct TodoApp: Equatable, Sendable { var todos = TodosFeature.State() }

final class ComposingFeaturesArticleTests: XCTestCase {
  func testTheArticlesFeatureOnACoreStore() {
    let app = Store<TodoApp, Never>(initialState: TodoApp())
    let todos = app.scope(
      \.todos,
      reducer: TodosFeature().forEach(\.todos, action: TodosFeature.todoCase, element: TodoFeature()))
    todos.send(.add("Buy milk"))
    todos.send(.todo(id: 0, action: .toggle))         // app.state.todos.todos[0].done == true

    XCTAssertEqual(app.state.todos.todos[0].done, true)
  }

  func testTheArticlesExample() async {
    let store = ActionStore(
      initialState: TodosFeature.State(),
      reducer: TodosFeature()
        .forEach(\.todos, action: TodosFeature.todoCase, element: TodoFeature())
        .ifLet(\.editing, action: TodosFeature.editorCase, then: TodoFeature()))

    store.send(.add("Buy milk"))
    store.send(.add("Call Ada"))
    store.send(.todo(id: 0, action: .toggle))           // todos[0].done == true
    store.send(.todo(id: 1, action: .remindLater))      // row 1 starts an effect
    store.send(.todo(id: 1, action: .delete))           // the parent removes row 1; its effect is cancelled

    let firstRow = store.scope(state: \.todos[id: 0]) { TodosFeature.Action.todo(id: 0, action: $0) }
    firstRow.send(.toggle)                              // sends .todo(id: 0, action: .toggle) to the root
    XCTAssertEqual(firstRow.state.current?.done, false) // false: toggled twice

    XCTAssertEqual(store.state.todos.map(\.title), ["Buy milk"])
    XCTAssertEqual(store.state.todos[0].done, false, "toggled twice")
    await store.waitUntilIdle()
    XCTAssertEqual(store.effectsInFlight, 0, "the removed row's reminder was cancelled")

    store.send(.edit(id: 0))
    store.send(.editor(.remindLater))
    XCTAssertEqual(store.effectsInFlight, 1)
    store.send(.stopEditing)
    await store.waitUntilIdle()
    XCTAssertEqual(store.effectsInFlight, 0, "closing the editor cancelled its effect")

    // "A row's scope outlives its row"
    let seen = Collected<TodoFeature.State?>()
    firstRow.sinkState { seen.append($0.current) }.storeWhileSourceActive()
    store.send(.todo(id: 0, action: .delete))           // the parent removes row 0
    XCTAssertNil(firstRow.state.current)                // nil
    firstRow.send(.toggle)                              // ignored by forEach: there is no row 0
    XCTAssertEqual(store.state.todos.count, 0)
    XCTAssertEqual(seen.all.map { $0?.id }, [0, nil])
  }
}
