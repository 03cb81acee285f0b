@testable import VergeCollections
import XCTest

/// The package API that composition (`forEach`) builds on.
final class IdentifiedArrayCompositionSupportTests: XCTestCase {
  func testModifyByIDInPlace() {
    var array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(2, "b")]
    let result = array.modify(id: 2) { row -> Int in
      row.value = "B"
      return 7
    }
    XCTAssertEqual(result, 7)
    XCTAssertEqual(array[id: 2]?.value, "B")
    XCTAssertNil(array.modify(id: 3) { $0.value = "none" })
    XCTAssertEqual(array.count, 2)
  }

  func testIDsRemovedIsEmptyWhileIDsAreUntouched() {
    var array = IdentifiedArrayOf<Row>(uniqueElements: (0..<500).map { Row($0) })
    let ids = array.idStorage
    array[id: 10]?.value = "x"
    array[20].value = "y"
    _ = array.modify(id: 30) { $0.value = "z" }
    XCTAssertTrue(array.idStorage.isIdentical(to: ids), "writes that keep ids leave their storage alone")
    XCTAssertEqual(array.idsRemoved(since: ids), [])
    array.remove(id: 40)
    array.append(Row(1_000))
    array.move(fromOffsets: [0], toOffset: 300)
    XCTAssertEqual(array.idsRemoved(since: ids), [40])
  }
}
