import VergeNeue
import XCTest

struct RootState: Equatable, Sendable {
  var count: Int = 0
}

// The method-reducer shape of the original Neue, as DESIGN.md shows it.
final class RootReducer: ReducerType {
  typealias TargetState = RootState
  func syncIncrement(adding number: Int) -> Mutation {
    .init { $0.count += number }
  }
  func asyncIncrement() -> Action<Void> {
    .init { context in
      try await Task.sleep(for: .milliseconds(10))
      context.commit { $0.syncIncrement(adding: 1) }
    }
  }
}

final class DesignSnippetTests: XCTestCase {
  func testMethodReducerSnippetCompilesAndBehaves() async throws {
    let store = ReducerStore(initialState: RootState(), reducer: RootReducer())
    // given a store of this reducer:
    store.commit { $0.syncIncrement(adding: 1) }
    try await store.dispatch { $0.asyncIncrement() }
    XCTAssertEqual(store.state.count, 2)
  }

  func testMutationIsNamedAfterItsMethod() {
    let mutation = RootReducer().syncIncrement(adding: 3)
    XCTAssertEqual(mutation.name, "syncIncrement(adding:)")
    XCTAssertTrue("\(mutation.file)".hasSuffix("DesignSnippetTests.swift"))
    var state = RootState()
    mutation.apply(to: &state)
    XCTAssertEqual(state.count, 3)
  }
}
