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

  /// Two and three key paths (or values) have forms of their own, four or
  /// more take the general one: each notices a change in any position,
  /// stays silent when nothing it reads changed, and hands over the values
  /// in order.
  func testEveryArityNoticesAChangeInItsLastPosition() {
    let changes = Changes(previous: Profile(), current: Profile(tags: ["math"]))
    var seen: [String] = []
    changes.ifChanged(\.first, \.tags) { first, tags in seen.append("2kp \(first) \(tags.sorted())") }
    changes.ifChanged(\.first, \.last, \.tags) { _, last, tags in seen.append("3kp \(last) \(tags.count)") }
    changes.ifChanged(\.first, \.last, \.age, \.tags) { _, _, age, tags in seen.append("4kp \(age) \(tags.count)") }
    changes.ifChanged({ ($0.age, $0.tags) }) { age, tags in seen.append("2v \(age) \(tags.count)") }
    changes.ifChanged({ ($0.first, $0.age, $0.tags) }) { first, _, _ in seen.append("3v \(first)") }
    changes.ifChanged({ ($0.first, $0.last, $0.age, $0.tags) }) { _, last, _, _ in seen.append("4v \(last)") }
    // Nothing these read changed.
    changes.ifChanged(\.first, \.last) { _, _ in seen.append("unexpected 2kp") }
    changes.ifChanged(\.first, \.last, \.age) { _, _, _ in seen.append("unexpected 3kp") }
    changes.ifChanged(\.first, \.last, \.age, \.first) { _, _, _, _ in seen.append("unexpected 4kp") }
    changes.ifChanged({ ($0.first, $0.age) }) { _, _ in seen.append("unexpected 2v") }
    changes.ifChanged({ ($0.first, $0.last, $0.age) }) { _, _, _ in seen.append("unexpected 3v") }
    XCTAssertEqual(
      seen, ["2kp Ada [\"math\"]", "3kp Lovelace 1", "4kp 36 1", "2v 36 1", "3v Ada", "4v Lovelace"])

    let first = Changes<Profile>(previous: nil, current: Profile())
    var runs = 0
    first.ifChanged(\.first, \.last, \.age) { _, _, _ in runs += 1 }
    first.ifChanged({ ($0.first, $0.age) }) { _, _ in runs += 1 }
    first.ifChanged({ ($0.first, $0.last, $0.age) }) { _, _, _ in runs += 1 }
    XCTAssertEqual(runs, 3, "a first delivery counts as a change in every form")
    XCTAssertEqual(changes.ifChanged(\.age, \.tags) { age, tags in age + tags.count }, 37)
    XCTAssertNil(changes.ifChanged(\.age, \.last, \.first) { age, _, _ in age })
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
