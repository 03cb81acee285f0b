import VergeCollections
import XCTest

/// The snippet of `IdentifiedArray`'s documentation, as written there.
final class IdentifiedArraySnippetTests: XCTestCase {
  struct Row: Identifiable, Equatable {
    let id: Int
    var title: String
  }

  func testTypeDocumentation() {
    // From the documentation:
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "One"), Row(id: 2, title: "Two")]
    rows[id: 2]?.title = "Deux"        // write by id
    rows[id: 3] = Row(id: 3, title: "Three") // a missing id appends
    rows[id: 1] = nil                 // nil removes

    // Checked:
    XCTAssertEqual(rows.elements, [Row(id: 2, title: "Deux"), Row(id: 3, title: "Three")])
  }

  func testUniquingInitializerDocumentation() {
    let fetched = [Row(id: 1, title: "old"), Row(id: 2, title: "Two"), Row(id: 1, title: "new")]
    // From the documentation of init(_:uniquingIDsWith:):
    let rows = IdentifiedArrayOf<Row>(fetched, uniquingIDsWith: { _, newer in newer })

    // Checked:
    XCTAssertEqual(rows.elements, [Row(id: 1, title: "new"), Row(id: 2, title: "Two")])
  }
}

/// The snippet of the module's documentation catalog, as written there.
final class VergeCollectionsCatalogSnippetTests: XCTestCase {
  struct Todo: Identifiable, Equatable {
    let id: Int
    var title: String
    var isDone = false
  }

  func testOverviewSnippet() {
    // From the documentation:
    var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Write"), Todo(id: 2, title: "Ship")]
    let before = todos                 // O(1): shares every node
    todos[id: 2]?.isDone = true        // O(log n): copies one path
    todos.append(Todo(id: 3, title: "Rest"))
    // before still holds the two original todos

    // Checked:
    XCTAssertEqual(before.elements, [Todo(id: 1, title: "Write"), Todo(id: 2, title: "Ship")])
    XCTAssertEqual(
      todos.elements,
      [Todo(id: 1, title: "Write"), Todo(id: 2, title: "Ship", isDone: true), Todo(id: 3, title: "Rest")])
  }
}
