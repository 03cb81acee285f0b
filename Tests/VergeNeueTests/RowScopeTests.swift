import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

private struct ScopedRow: Equatable, Sendable, Identifiable {
  let id: Int
  var count = 0
}

private struct ScopedRowFeature: ActionReducer {
  typealias State = ScopedRow
  enum Action: Sendable { case increment }

  func reduce(into state: inout ScopedRow, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    return .none
  }
}

private struct ScopedListFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<ScopedRow> = [ScopedRow(id: 1), ScopedRow(id: 2)]
  }
  enum Action: Sendable {
    case row(id: Int, action: ScopedRowFeature.Action)
    case remove(id: Int)
    case insert(ScopedRow)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: ScopedRowFeature.Action)>({ .row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .row: break
    case .remove(let id): state.rows.remove(id: id)
    case .insert(let row): state.rows.append(row)
    }
    return .none
  }
}

/// A method reducer for one row, by id: its state is optional, so its
/// writes do nothing once the row is gone.
private final class ScopedRowMethods: ReducerType {
  typealias TargetState = ScopedRow?

  func increment() -> Mutation { .init { $0?.count += 1 } }
}

private func listStore() -> ActionStore<Composed<ScopedListFeature>> {
  ActionStore(
    initialState: ScopedListFeature.State(),
    reducer: ScopedListFeature().forEach(\.rows, action: ScopedListFeature.rowCase, element: ScopedRowFeature()))
}

/// A scope of one row outlives the row. By id, its state
/// is optional and reads `nil` while the row is gone; by index, the key path
/// traps with its message, as the article says (run in a child process).
final class RowScopeTests: XCTestCase {
  func testAScopeByIDReadsNilWhileItsRowIsGoneAndFollowsItBack() {
    let store = listStore()
    let row = store.scope(state: \.rows[id: 2]) { ScopedListFeature.Action.row(id: 2, action: $0) }
    let seen = Collected<ScopedRow?>()
    row.sinkState { seen.append($0.current) }.storeWhileSourceActive()

    row.send(.increment)
    store.send(.remove(id: 2))
    XCTAssertNil(row.state.current)
    row.send(.increment)                      // no row 2: the root's forEach ignores it
    XCTAssertEqual(store.state.rows.map(\.id), [1])
    XCTAssertEqual(store.state.rows[id: 1], ScopedRow(id: 1), "another row is not touched")

    store.send(.insert(ScopedRow(id: 2, count: 7)))
    row.send(.increment)
    XCTAssertEqual(row.state.current, ScopedRow(id: 2, count: 8))
    XCTAssertEqual(seen.all, [ScopedRow(id: 2), ScopedRow(id: 2, count: 1), nil, ScopedRow(id: 2, count: 7), ScopedRow(id: 2, count: 8)])
  }

  func testRemovingARowFromAnotherThreadWhileItsScopeIsSubscribed() async {
    let store = listStore()
    let row = store.scope(state: \.rows[id: 2]) { ScopedListFeature.Action.row(id: 2, action: $0) }
    let seen = Collected<ScopedRow?>()
    row.sinkState { seen.append($0.current) }.storeWhileSourceActive()

    let rounds = 300
    let remover = Task.detached {
      for _ in 0..<rounds {
        store.send(.remove(id: 2))
        store.send(.insert(ScopedRow(id: 2)))
      }
    }
    for _ in 0..<rounds {
      row.send(.increment)
      _ = row.state.current?.count
    }
    await remover.value
    store.send(.remove(id: 2))

    XCTAssertNil(row.state.current)
    XCTAssertEqual(seen.all.last, .some(nil), "the last delivery is the row gone")
    XCTAssertEqual(store.state.rows.map(\.id), [1])
  }

  func testAMethodScopeByIDWritesNothingWhileItsRowIsGone() {
    let store = ReducerStore(initialState: ScopedListFeature.State(), reducer: ScopedListMethods())
    let row = store.scope(\.rows[id: 2], reducer: ScopedRowMethods())
    let seen = Collected<ScopedRow?>()
    row.sinkState { seen.append($0.current) }.storeWhileSourceActive()

    row.commit { $0.increment() }
    store.commit { $0.remove(id: 2) }
    row.commit { $0.increment() }             // `$0?.count += 1` on nil: nothing
    XCTAssertNil(row.state.current)
    XCTAssertEqual(store.state.rows.map(\.id), [1])
    XCTAssertEqual(seen.all, [ScopedRow(id: 2), ScopedRow(id: 2, count: 1), nil])
  }

  // MARK: - In a child process

  private static let child = ChildProcess(variable: "VERGE_ROW_SCOPE_CHILD")

  func testAScopeByIndexTrapsOnceItsRowIsRemovedAsTheArticleSays() throws {
    let (status, stderr, _) = try runChild("ScopeByIndex")
    XCTAssertNotEqual(status, 0, stderr)
    // In every build, optimized ones too (`.ci/run` runs this test in one).
    XCTAssertTrue(stderr.contains("IdentifiedArray: index 1 out of range 0..<1"), stderr)
  }

  func testAScopeByIDOutlivesItsRowInTheSameProgram() throws {
    let (status, stderr, stdout) = try runChild("ScopeByID")
    XCTAssertEqual(status, 0, stderr)
    XCTAssertTrue(stdout.contains("testChildScopeByID' passed"), stdout)
  }

  func testChildScopeByIndex() throws {
    try onlyAsChild("ScopeByIndex")
    let store = listStore()
    let row = store.scope(state: \.rows[1]) { ScopedListFeature.Action.row(id: 2, action: $0) }
    row.sinkState { _ in }.storeWhileSourceActive()
    store.send(.remove(id: 2))                 // the scope reads `rows[1]` of one row: traps
    XCTFail("did not trap")
  }

  func testChildScopeByID() throws {
    try onlyAsChild("ScopeByID")
    let store = listStore()
    let row = store.scope(state: \.rows[id: 2]) { ScopedListFeature.Action.row(id: 2, action: $0) }
    row.sinkState { _ in }.storeWhileSourceActive()
    store.send(.remove(id: 2))
    XCTAssertNil(row.state.current)
  }

  private func runChild(_ name: String) throws -> (status: Int32, stderr: String, stdout: String) {
    let outcome = try Self.child.run(test: "VergeNeueTests.RowScopeTests/testChild\(name)", scenario: name)
    return (outcome.status, outcome.stderr, outcome.stdout)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
      throw XCTSkip("runs only as the child process of a RowScopeTests test")
    }
  }
}

/// The list's method reducer, for a method scope of one row.
private final class ScopedListMethods: ReducerType {
  typealias TargetState = ScopedListFeature.State

  func remove(id: Int) -> Mutation { .init { $0.rows.remove(id: id) } }
}
