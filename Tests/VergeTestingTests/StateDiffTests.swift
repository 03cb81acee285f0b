import VergeTesting
import XCTest

final class StateDiffTests: XCTestCase {
  struct Profile: Equatable {
    var name: String
    var nickname: String?
    var scores: [String: Int] = [:]
  }

  enum Mode: Equatable {
    case idle
    case loading(progress: Int)
    case failed(String)
  }

  struct Screen: Equatable {
    var profile: Profile
    var items: [String]
    var mode: Mode
    var count = 0
  }

  private let base = Screen(profile: Profile(name: "Blob"), items: ["a", "b"], mode: .idle)

  func testEqualValuesHaveNoDifferences() {
    XCTAssertEqual(StateDiff.differences(expected: base, actual: base), [])
  }

  func testNestedFieldShowsOnlyItsPath() {
    var actual = base
    actual.profile.name = "Blob Jr."
    XCTAssertEqual(
      StateDiff.render(expected: base, actual: actual),
      """
        profile.name
          expected: "Blob"
          actual:   "Blob Jr."
      """)
  }

  func testArrayElementsChangedAddedAndRemoved() {
    var actual = base
    actual.items = ["a", "c", "d"]
    XCTAssertEqual(
      StateDiff.differences(expected: base, actual: actual),
      [
        .init(path: "items[1]", expected: "\"b\"", actual: "\"c\""),
        .init(path: "items[2]", expected: "(absent)", actual: "\"d\""),
      ])
    XCTAssertEqual(
      StateDiff.differences(expected: actual, actual: base).last,
      .init(path: "items[2]", expected: "\"d\"", actual: "(absent)"))
  }

  struct Row: Identifiable, Equatable {
    let id: Int
    var title: String
  }

  struct List: Equatable {
    var rows: IdentifiedArrayOf<Row>
  }

  func testIdentifiedArrayShowsDifferingRowsByID() {
    let expected = List(rows: IdentifiedArrayOf(uniqueElements: (0..<10_000).map { Row(id: $0, title: "Row \($0)") }))
    var actual = expected
    actual.rows[id: 7]?.title = "seven"
    actual.rows.remove(id: 9_000)
    actual.rows.append(Row(id: -1, title: "new"))
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual),
      [
        .init(path: "rows[id: 7].title", expected: "\"Row 7\"", actual: "\"seven\""),
        .init(path: "rows[id: 9000]", expected: "Row(id: 9000, title: \"Row 9000\")", actual: "(absent)"),
        .init(path: "rows[id: -1]", expected: "(absent)", actual: "Row(id: -1, title: \"new\")"),
      ])
  }

  func testIdentifiedArrayInAnotherOrderShowsItsIDs() {
    let expected = List(rows: [Row(id: 1, title: "a"), Row(id: 2, title: "b")])
    var actual = expected
    actual.rows.swapAt(0, 1)
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual),
      [
        .init(path: "rows.ids[0]", expected: "1", actual: "2"),
        .init(path: "rows.ids[1]", expected: "2", actual: "1"),
      ])
  }

  func testDictionaryKeys() {
    var expected = base
    expected.profile.scores = ["alice": 1, "bob": 2]
    var actual = base
    actual.profile.scores = ["alice": 3, "carol": 4]
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual),
      [
        .init(path: "profile.scores[\"alice\"]", expected: "1", actual: "3"),
        .init(path: "profile.scores[\"bob\"]", expected: "2", actual: "(absent)"),
        .init(path: "profile.scores[\"carol\"]", expected: "(absent)", actual: "4"),
      ])
  }

  func testEnumsAndOptionals() {
    var expected = base
    expected.mode = .loading(progress: 10)
    expected.profile.nickname = "B"
    var actual = base
    actual.mode = .loading(progress: 20)
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual),
      [
        .init(path: "profile.nickname", expected: "\"B\"", actual: "nil"),
        .init(path: "mode.loading.progress", expected: "10", actual: "20"),
      ])
    actual.mode = .failed("offline")
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual).last,
      .init(path: "mode", expected: ".loading(progress: 10)", actual: ".failed(\"offline\")"))
    actual.mode = .idle
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual).last,
      .init(path: "mode", expected: ".loading(progress: 10)", actual: ".idle"))
  }

  func testWholeValueRendering() {
    XCTAssertEqual(
      StateDiff.render(expected: 1, actual: 2),
      """
        self
          expected: 1
          actual:   2
      """)
    XCTAssertEqual(
      StateDiff.differences(expected: [Profile(name: "a")], actual: []),
      [.init(path: "[0]", expected: "Profile(name: \"a\", nickname: nil, scores: [:])", actual: "(absent)")])
  }

  func testLongListsAreCut() {
    let expected = Array(0..<100)
    let actual = expected.map { $0 + 1 }
    let text = StateDiff.render(expected: expected, actual: actual)
    XCTAssertTrue(text.hasSuffix("  … and 60 more differences"), text)
  }
}
