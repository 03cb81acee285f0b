import VergeTestSupport
import XCTest

import VergeNeue

/// A row whose action can change its own id: a programming error that
/// `forEach` stops with a message, whether it reaches the rows through a
/// stored property or a computed one.
private struct RenumberingRow: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
  }
  enum Action: Sendable { case renumber(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    if case .renumber(let id) = action { state.id = id }
    return .none
  }
}

private struct RenumberingList: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<RenumberingRow.State> = [RenumberingRow.State(id: 1)]
    var computedRows: IdentifiedArrayOf<RenumberingRow.State> {
      get { rows }
      set { rows = newValue }
    }
  }
  enum Action: Sendable { case row(id: Int, action: RenumberingRow.Action) }

  static let rowCase = ActionCase<Action, (id: Int, action: RenumberingRow.Action)>({
    .row(id: $0.id, action: $0.action)
  }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> { .none }
}

final class ForEachMisuseTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_FOR_EACH_MISUSE_CHILD")

  func testAnElementChangingItsIDThroughAStoredPropertyTraps() throws {
    try assertTraps("Stored")
  }

  func testAnElementChangingItsIDThroughAComputedPropertyTraps() throws {
    try assertTraps("Computed")
  }

  func testChildStored() throws {
    try onlyAsChild("Stored")
    let store = ActionStore(
      initialState: RenumberingList.State(),
      reducer: RenumberingList().forEach(\.rows, action: RenumberingList.rowCase, element: RenumberingRow()))
    store.send(.row(id: 1, action: .renumber(5)))
    XCTFail("did not trap: \(store.state.rows.map(\.id))")
  }

  func testChildComputed() throws {
    try onlyAsChild("Computed")
    let store = ActionStore(
      initialState: RenumberingList.State(),
      reducer: RenumberingList().forEach(\.computedRows, action: RenumberingList.rowCase, element: RenumberingRow()))
    store.send(.row(id: 1, action: .renumber(5)))
    XCTFail("did not trap: \(store.state.rows.map(\.id))")
  }

  private func assertTraps(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let outcome = try Self.child.run(test: "VergeNeueTests.ForEachMisuseTests/testChild\(name)", scenario: name)
    XCTAssertNotEqual(outcome.status, 0, outcome.stderr, file: file, line: line)
    XCTAssertTrue(
      outcome.stderr.contains("IdentifiedArray: an element with id 5 was written under id 1"), outcome.stderr,
      file: file, line: line)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
      throw XCTSkip("runs only as the child process of a ForEachMisuseTests test")
    }
  }
}
