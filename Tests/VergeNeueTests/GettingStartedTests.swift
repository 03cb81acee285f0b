import VergeNeue
import XCTest

// The counter of the Getting Started article and the README, in the three
// styles, kept here so the documentation compiles and behaves as shown.

struct Counter: Equatable, Sendable {
  var count = 0
}

// 2. Strict, method reducer: every change is a named mutation or action.
final class CounterReducer: ReducerType {
  typealias TargetState = Counter

  func increment() -> Mutation { .init { $0.count += 1 } }
  func decrement() -> Mutation { .init { $0.count -= 1 } }
  func incrementLater() -> Action<Void> {
    .init { context in
      await Task.yield()
      context.commit { $0.increment() }
    }
  }
}

// 3. Strict, enum actions: one reduce function, effects for async work.
struct CounterActions: ActionReducer {
  typealias State = Counter
  enum Action: Sendable { case increment, decrement, incrementLater }

  func reduce(into state: inout Counter, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .incrementLater:
      return .run { send in
        await Task.yield()
        send(.increment)
      }
    }
  }
}

// From synchronous code (a button handler), `dispatch` returns the task.
func incrementTapped(_ store: ReducerStore<CounterReducer>) {  // not async
  store.dispatch { $0.incrementLater() }
}

final class GettingStartedTests: XCTestCase {
  func testTheSameCounterInThreeStyles() async throws {
    // 1. Free commits on the core store.
    let free = Store<Counter, Never>(initialState: Counter())
    free.commit { $0.count += 1 }
    free.commit { $0.count -= 1 }
    free.commit("increment") { $0.count += 1 }

    // 2. Method reducer.
    let methods = ReducerStore(initialState: Counter(), reducer: CounterReducer())
    methods.commit { $0.increment() }
    methods.commit { $0.decrement() }
    try await methods.dispatch { $0.incrementLater() }
    incrementTapped(methods)
    let task: Task<Void, any Error> = methods.dispatch { $0.incrementLater() }
    try await task.value
    await methods.waitUntilIdle()

    // 3. Enum actions.
    let actions = ActionStore(initialState: Counter(), reducer: CounterActions())
    actions.send(.increment)
    actions.send(.decrement)
    await actions.send(.incrementLater).finish()

    XCTAssertEqual(free.state.count, 1)
    XCTAssertEqual(methods.state.count, 3)
    XCTAssertEqual(actions.state.count, 1)
  }

  func testAMiddlewareThatKeepsItsStep() async {
    let slowDecrements = Middleware<CounterActions.Action, Counter>(name: "slow decrements") { step in
      guard case .decrement = step.message else {
        step.next()
        return
      }
      let later = step.keep()  // a step that may outlive this call
      Task {
        try await Task.sleep(for: .milliseconds(10))
        later.next()
      }
    }
    let slow = ActionStore(initialState: Counter(), reducer: CounterActions(), middlewares: [slowDecrements])
    slow.send(.increment)
    XCTAssertEqual(slow.state.count, 1)
    await slow.send(.decrement).finish()  // finishes once the kept step is gone
    XCTAssertEqual(slow.state.count, 0)
  }
}
