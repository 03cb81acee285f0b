import VergeNeue
import VergeTestSupport
import XCTest

// `dispatch` of a method reducer from synchronous code (a button handler)
// returns the action's task; in async code it returns the result.

struct TapState: Equatable, Sendable {
  var count = 0
  var log: [String] = []
  var sawCancellation = false
}

final class TapReducer: ReducerType {
  typealias TargetState = TapState
  let started = Gate()
  let release = Gate()

  func add(_ amount: Int) -> Mutation { .init { $0.count += amount } }
  func note(_ entry: String) -> Mutation { .init { $0.log.append(entry) } }
  func markCancelled() -> Mutation { .init { $0.sawCancellation = true } }

  func addLater(_ amount: Int) -> Action<Int> {
    .init { context in
      await Task.yield()
      context.commit { $0.add(amount) }
      return context.state.count
    }
  }

  /// Notes `name-1`, waits for `release`, notes `name-2`.
  func twoSteps(_ name: String) -> Action<Void> {
    .init { context in
      context.commit { $0.note("\(name)-1") }
      await self.release.wait()
      context.commit { $0.note("\(name)-2") }
    }
  }

  /// Commits 1, 2 and 3 with suspensions between them.
  func countToThree() -> Action<Void> {
    .init { context in
      context.commit { $0.add(1) }
      await Task.yield()
      context.commit { $0.add(1) }
      await Task.yield()
      context.commit { $0.add(1) }
    }
  }

  /// Opens `started`, then waits until cancelled and records that it saw it.
  func waitForCancellation() -> Action<Void> {
    .init { context in
      self.started.open()
      do {
        try await Task.sleep(for: .seconds(600))
      } catch {
        if Task.isCancelled { context.commit { $0.markCancelled() } }
        throw error
      }
    }
  }
}

/// Not `Sendable`: a closure that captures it can only be passed where the
/// caller's isolation is kept.
final class Amount {
  var value = 2
}

/// A button handler: a synchronous function.
func buttonTapped(_ store: ReducerStore<TapReducer>) -> Task<Int, any Error> {
  store.dispatch { $0.addLater(5) }
}

@MainActor
final class TapViewModel {
  let store = ReducerStore(initialState: TapState(), reducer: TapReducer())
  let amount = Amount()

  /// A main-actor button handler: synchronous, fire and forget.
  func tapped() {
    store.dispatch { $0.addLater(self.amount.value) }
  }

  /// A main-actor async function: the awaited form, with a closure that
  /// captures main-actor state.
  func refresh() async throws -> Int {
    try await store.dispatch { $0.addLater(self.amount.value) }
  }
}

final class SyncDispatchTests: XCTestCase {
  func testFromSynchronousCodeItReturnsATaskWithTheResult() async throws {
    let store = ReducerStore(initialState: TapState(), reducer: TapReducer())
    let handle = buttonTapped(store)
    let result = try await handle.value
    XCTAssertEqual(result, 5)
    XCTAssertEqual(store.state.count, 5)
  }

  func testInAsyncCodeItReturnsTheResultDirectly() async throws {
    let store = ReducerStore(initialState: TapState(), reducer: TapReducer())
    let result = try await store.dispatch { $0.addLater(3) }
    XCTAssertEqual(result + 1, 4, "the async form returns the action's Int, not a task")
    try await store.dispatch { $0.addLater(1) }  // a discarded result still compiles
    XCTAssertEqual(store.state.count, 4)
  }

  @MainActor
  func testFromMainActorCodeBothFormsWork() async throws {
    let model = TapViewModel()
    model.tapped()
    await model.store.waitUntilIdle()
    XCTAssertEqual(model.store.state.count, 2)
    let result = try await model.refresh()
    XCTAssertEqual(result, 4)
  }

  func testTheActionIsInFlightWhenDispatchReturns() async throws {
    let reducer = TapReducer()
    let store = ReducerStore(initialState: TapState(), reducer: reducer)
    // In async code a task-typed result picks the synchronous form.
    let handle: Task<Void, any Error> = store.dispatch { $0.twoSteps("a") }
    XCTAssertEqual(store.actionsInFlight, 1)
    reducer.release.open()
    await store.waitUntilIdle()
    XCTAssertEqual(store.state.log, ["a-1", "a-2"])
    try await handle.value
  }

  func testCancellingBeforeTheActionEndsCancelsIt() async throws {
    let reducer = TapReducer()
    let store = ReducerStore(initialState: TapState(), reducer: reducer)
    let handle: Task<Void, any Error> = store.dispatch { $0.waitForCancellation() }
    await reducer.started.wait()
    handle.cancel()
    do {
      try await handle.value
      XCTFail("a cancelled action's value must throw")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertTrue(store.state.sawCancellation, "the action saw the cancellation")
    XCTAssertEqual(store.actionsInFlight, 0)
  }

  func testASyncStartedActionsCommitsLandInOrder() async throws {
    let store = ReducerStore(initialState: TapState(), reducer: TapReducer())
    let seen = Collected<Int>()
    store.sinkState { seen.append($0.count) }.storeWhileSourceActive()
    let handle: Task<Void, any Error> = store.dispatch { $0.countToThree() }
    try await handle.value
    XCTAssertEqual(seen.all, [0, 1, 2, 3])
  }

  func testActionsStartOnTheCallingThreadInDispatchOrder() async throws {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
      throw XCTSkip("Task.immediate is needed to start an action before dispatch returns")
    }
    let reducer = TapReducer()
    let store = ReducerStore(initialState: TapState(), reducer: reducer)
    let first: Task<Void, any Error> = store.dispatch { $0.twoSteps("a") }
    let second: Task<Void, any Error> = store.dispatch { $0.twoSteps("b") }
    XCTAssertEqual(store.state.log, ["a-1", "b-1"], "each ran up to its first suspension, in order")
    reducer.release.open()
    try await first.value
    try await second.value
    XCTAssertEqual(Set(store.state.log), ["a-1", "b-1", "a-2", "b-2"])
  }

  func testScopedStoresDispatchFromSynchronousCodeToo() async throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    let handle: Task<String, any Error> = profile.dispatch { $0.renameLater("Ada") }
    let name = try await handle.value
    XCTAssertEqual(name, "Ada")
    XCTAssertEqual(parent.state.profile.name, "Ada")
    let again = try await profile.dispatch { $0.renameLater("Lin") }
    XCTAssertEqual(again + "!", "Lin!")
  }
}
