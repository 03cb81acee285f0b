import XCTest

@testable import VergeNeue

/// A row whose effect runs at the priority it asks for and reports the
/// priority it ran at.
private struct PriorityRow: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var ranAt: UInt8?
  }
  enum Action: Sendable { case start, ran(UInt8) }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .start:
      return .run(priority: .low) { send in send(.ran(Task.basePriority?.rawValue ?? 0)) }
    case .ran(let priority):
      state.ranAt = priority
      return .none
    }
  }
}

private struct PriorityList: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<PriorityRow.State> = [PriorityRow.State(id: 1)]
  }
  enum Action: Sendable { case row(id: Int, action: PriorityRow.Action) }

  static let rowCase = ActionCase<Action, (id: Int, action: PriorityRow.Action)>({
    .row(id: $0.id, action: $0.action)
  }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> { .none }
}

final class EffectPriorityTests: XCTestCase {
  func testMappingAndMarkingAnEffectKeepItsPriority() throws {
    let effect = Effect<Int, Never>.run(priority: .low) { _ in }.map { $0 + 1 }.cancellable(id: "row")
    guard case .run(let run) = try XCTUnwrap(effect.items.first) else { return XCTFail("a task, not \(effect.items)") }
    XCTAssertEqual(run.priority, .low)
    guard case .run(let plain) = try XCTUnwrap(Effect<Int, Never>.run { _ in }.items.first) else {
      return XCTFail("a task")
    }
    XCTAssertNil(plain.priority, "no priority asked, none given")
  }

  func testARowsEffectThroughForEachRunsAtThePriorityItAskedFor() async {
    let store = ActionStore(
      initialState: PriorityList.State(),
      reducer: PriorityList().forEach(\.rows, action: PriorityList.rowCase, element: PriorityRow()))
    await store.send(.row(id: 1, action: .start)).finish()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.rows[id: 1]?.ranAt, TaskPriority.low.rawValue)
  }
}
