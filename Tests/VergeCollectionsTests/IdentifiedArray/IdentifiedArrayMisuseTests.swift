import Foundation
import VergeCollections
import VergeTestSupport
import XCTest

/// Duplicate ids and id-changing writes stop the program with a message
/// naming the id. A trap ends the process, so each case runs in a child
/// process (this same test binary, running only the matching `testChild…`
/// case) and the parent checks its exit status and message.
final class IdentifiedArrayMisuseTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_IDENTIFIED_ARRAY_CHILD")

  private func runChild(_ name: String) throws -> (status: Int32, stderr: String) {
    let outcome = try Self.child.run(test: "VergeCollectionsTests.IdentifiedArrayMisuseTests/testChild\(name)", scenario: name)
    return (outcome.status, outcome.stderr)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
      throw XCTSkip("runs only as the child process of test\(name)")
    }
  }

  private func assertTraps(_ name: String, with message: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let (status, stderr) = try runChild(name)
    XCTAssertNotEqual(status, 0, file: file, line: line)
    XCTAssertTrue(stderr.contains(message), stderr, file: file, line: line)
  }

  func testDuplicateIDsInInitTrap() throws {
    try assertTraps("DuplicateInit", with: "IdentifiedArray: duplicate id 2 in init(uniqueElements:)")
  }

  func testDuplicateIDsInLiteralTrap() throws {
    try assertTraps("DuplicateLiteral", with: "IdentifiedArray: duplicate id 1 in an array literal")
  }

  func testWritingAnotherIDThroughSubscriptIDTraps() throws {
    try assertTraps("SubscriptIDMismatch", with: "IdentifiedArray: an element with id 5 was written under id 1")
  }

  func testWritingAnotherIDThroughSubscriptIDInPlaceTraps() throws {
    try assertTraps("SubscriptIDMismatchInPlace", with: "IdentifiedArray: an element with id 5 was written under id 1")
  }

  func testWritingAnotherIDThroughIndexTraps() throws {
    try assertTraps("IndexIDMismatch", with: "IdentifiedArray: the element at index 0 has id 1; writing one with id 5 would change it")
  }

  func testUpdatingAtAnIndexWithAnotherIDTraps() throws {
    try assertTraps("UpdateAtIDMismatch", with: "IdentifiedArray: the element at index 0 has id 1; writing one with id 5 would change it")
  }

  func testDuplicateIDsInUncheckedInitTrap() throws {
    try assertTraps("DuplicateUncheckedInit", with: "IdentifiedArray: duplicate id 2 in init(uncheckedUniqueElements:)")
  }

  func testChildUpdateAtIDMismatch() throws {
    try onlyAsChild("UpdateAtIDMismatch")
    var array: IdentifiedArrayOf<Row> = [Row(1)]
    array.update(Row(5), at: 0)
    XCTFail("did not trap: \(array)")
  }

  func testChildDuplicateUncheckedInit() throws {
    try onlyAsChild("DuplicateUncheckedInit")
    _ = IdentifiedArrayOf<Row>(uncheckedUniqueElements: [Row(1), Row(2), Row(2)])
    XCTFail("did not trap")
  }

  func testChildDuplicateInit() throws {
    try onlyAsChild("DuplicateInit")
    _ = IdentifiedArrayOf<Row>(uniqueElements: [Row(1), Row(2), Row(3), Row(2)])
    XCTFail("did not trap")
  }

  func testChildDuplicateLiteral() throws {
    try onlyAsChild("DuplicateLiteral")
    let array: IdentifiedArrayOf<Row> = [Row(1, "a"), Row(1, "b")]
    XCTFail("did not trap: \(array)")
  }

  func testChildSubscriptIDMismatch() throws {
    try onlyAsChild("SubscriptIDMismatch")
    var array: IdentifiedArrayOf<Row> = [Row(1)]
    array[id: 1] = Row(5)
    XCTFail("did not trap")
  }

  func testChildSubscriptIDMismatchInPlace() throws {
    try onlyAsChild("SubscriptIDMismatchInPlace")
    var array: IdentifiedArrayOf<Row> = [Row(1)]
    // An `inout` access goes through the accessor that yields, not the setter.
    func replace(_ slot: inout Row?) { slot = Row(5) }
    replace(&array[id: 1])
    XCTFail("did not trap")
  }

  func testChildIndexIDMismatch() throws {
    try onlyAsChild("IndexIDMismatch")
    var array: IdentifiedArrayOf<Row> = [Row(1)]
    array[0] = Row(5)
    XCTFail("did not trap")
  }
}
