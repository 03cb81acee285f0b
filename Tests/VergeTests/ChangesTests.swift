import Verge
import XCTest

final class ChangesTests: XCTestCase {
  struct Profile: Equatable, Sendable {
    var first = "Ada"
    var last = "Lovelace"
    var age = 36
    var tags: Set<String> = []
  }

  func testMemberLookupReadsTheCurrentState() {
    let changes = Changes(previous: Profile(), current: Profile(first: "Grace"))
    XCTAssertEqual(changes.first, "Grace")
    XCTAssertEqual(changes.previous?.first, "Ada")
  }

  func testIfChangedSingleKeyPath() {
    let changes = Changes(previous: Profile(), current: Profile(age: 37))
    var ran: [String] = []
    changes.ifChanged(\.age) { ran.append("age \($0)") }
    changes.ifChanged(\.first) { ran.append("first \($0)") }
    XCTAssertEqual(ran, ["age 37"])
    XCTAssertTrue(changes.hasChanged(\.age))
    XCTAssertFalse(changes.hasChanged(\.first))
  }

  func testIfChangedSeveralKeyPathsRunsWhenAnyChanged() {
    let changes = Changes(previous: Profile(), current: Profile(last: "Byron"))
    var names: [String] = []
    changes.ifChanged(\.first, \.last) { first, last in names.append("\(first) \(last)") }
    changes.ifChanged(\.first, \.age) { first, age in names.append("unexpected \(first) \(age)") }
    XCTAssertEqual(names, ["Ada Byron"])
  }

  func testIfChangedWithClosureComparesElementwise() {
    let same = Changes(previous: Profile(age: 1), current: Profile(age: 2))
    let different = Changes(previous: Profile(), current: Profile(first: "Grace"))
    var calls = 0
    same.ifChanged({ ($0.first, $0.last) }) { _, _ in calls += 1 }
    XCTAssertEqual(calls, 0)
    different.ifChanged({ ($0.first, $0.last) }) { first, _ in
      calls += 1
      XCTAssertEqual(first, "Grace")
    }
    XCTAssertEqual(calls, 1)
  }

  func testIfChangedWithCustomComparer() {
    let changes = Changes(previous: Profile(first: "ada"), current: Profile(first: "ADA"))
    var caseInsensitiveRuns = 0
    changes.ifChanged({ $0.first }, { $0.lowercased() == $1.lowercased() }) { _ in
      caseInsensitiveRuns += 1
    }
    XCTAssertEqual(caseInsensitiveRuns, 0)
    XCTAssertTrue(changes.hasChanged({ $0.first }, comparedBy: ==))
  }

  func testFirstDeliveryAlwaysCountsAsChanged() {
    let first = Changes<Profile>(previous: nil, current: Profile())
    var runs = 0
    first.ifChanged(\.age) { _ in runs += 1 }
    first.ifChanged(\.first, \.last) { _, _ in runs += 1 }
    first.ifChanged({ $0.tags }) { _ in runs += 1 }
    first.ifChanged({ $0.age }, { _, _ in true }) { _ in runs += 1 }
    XCTAssertEqual(runs, 4)
    XCTAssertTrue(first.hasChanged(\.age))
  }

  func testIfChangedReturnsTheBodyResult() {
    let changes = Changes(previous: Profile(), current: Profile(age: 40))
    XCTAssertEqual(changes.ifChanged(\.age) { $0 * 2 }, 80)
    XCTAssertNil(changes.ifChanged(\.first) { $0 })
  }

  func testOneValueFormsCompareASubscriptedPart() {
    struct Rows: Equatable { var values = [1, 2, 3] }
    let changes = Changes(previous: Rows(), current: Rows(values: [1, 20, 3]))
    var seen: [Int] = []
    for index in 0..<3 {
      changes.ifChanged(\.values[index]) { seen.append($0) }
      changes.ifChanged({ $0.values[index] }) { seen.append(-$0) }
    }
    XCTAssertEqual(seen, [20, -20])
    XCTAssertTrue(changes.hasChanged(\.values[1]))
    XCTAssertFalse(changes.hasChanged(\.values[2]))
    XCTAssertEqual(changes.ifChanged({ $0.values[1] }) { $0 + 1 }, 21)
    XCTAssertNil(changes.ifChanged({ $0.values[0] }) { $0 })
  }

  func testMapNarrowsToAPart() {
    let changes = Changes(previous: Profile(), current: Profile(age: 40))
    let ages = changes.map(\.age)
    XCTAssertEqual(ages.previous, 36)
    XCTAssertEqual(ages.current, 40)
  }
}
