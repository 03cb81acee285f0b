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
}
