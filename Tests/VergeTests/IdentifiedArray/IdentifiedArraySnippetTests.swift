import Verge
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
