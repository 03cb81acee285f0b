import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

// The Neue snippets of DESIGN.md ("Snippets that compile as written"), as
// written there, with the types they need around them.

struct RootState: Equatable, Sendable {
  var count: Int = 0
  var comments: [Comment.ID: Comment] = [:]
  var fragment = FragmentState()
}

extension Photo: Identifiable {}

struct Comment: Identifiable, Equatable, Sendable {
  let id = UUID()
  let photoID: Photo.ID
  let body: String
}

struct FragmentState: Equatable, Sendable {
  var count = 0
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

  // Neue README: a commit that builds its mutation inline.
  func submitComment(body: String, photoID: Photo.ID) -> Action<Void> {
    return .init { context in
      let comment = Comment(photoID: photoID, body: body)
      context.commit { _ in
        .init { $0.comments[comment.id] = comment }
      }
    }
  }
}

final class FragmentReducer: ReducerType {
  typealias TargetState = FragmentState
  func increment() -> Mutation { .init { $0.count += 1 } }
}

/// A screen whose button handlers are synchronous, as in the Neue README.
@MainActor
final class PhotoScreen {
  let store: ReducerStore<RootReducer>
  let id: Photo.ID = 7

  init(store: ReducerStore<RootReducer>) {
    self.store = store
  }

  func incrementTapped() {
    store.dispatch { $0.asyncIncrement() }          // in a button handler
  }

  func sendTapped() {
    store.dispatch { $0.submitComment(body: "Nice", photoID: id) }
  }
}

/// The same from a plain (nonisolated) synchronous function.
func buttonHandler(_ store: ReducerStore<RootReducer>, id: Photo.ID) {
  store.dispatch { $0.asyncIncrement() }          // in a button handler
  store.dispatch { $0.submitComment(body: "Nice", photoID: id) }
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

  func testACommitThatBuildsItsMutationInline() async throws {
    let store = ReducerStore(initialState: RootState(), reducer: RootReducer())
    try await store.dispatch { $0.submitComment(body: "Nice", photoID: 7) }
    XCTAssertEqual(store.state.comments.values.map(\.body), ["Nice"])
    XCTAssertEqual(store.state.comments.values.map(\.photoID), [7])
  }

  func testActionsStartedFromASynchronousFunction() async {
    let store = ReducerStore(initialState: RootState(), reducer: RootReducer())
    buttonHandler(store, id: 7)
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.count, 1)
    XCTAssertEqual(store.state.comments.values.map(\.body), ["Nice"])
  }

  @MainActor
  func testActionsStartedFromMainActorButtonHandlers() async {
    let screen = PhotoScreen(store: ReducerStore(initialState: RootState(), reducer: RootReducer()))
    screen.incrementTapped()
    screen.sendTapped()
    await screen.store.waitUntilIdle()
    XCTAssertEqual(screen.store.state.count, 1)
    XCTAssertEqual(screen.store.state.comments.values.map(\.photoID), [7])
  }

  func testAScopedCommitChangesTheRootStoresState() {
    let rootStore = ReducerStore(initialState: RootState(), reducer: RootReducer())
    let fragment = rootStore.scope(\.fragment, reducer: FragmentReducer())
    fragment.commit { $0.increment() }               // changes rootStore's state
    XCTAssertEqual(rootStore.state.fragment.count, 1)
    XCTAssertEqual(fragment.state.count, 1)
  }
}
