import VergeNeue
import VergeTestSupport
import XCTest

enum Notice: Sendable, Equatable {
  case saved(Int)
  case greeted(String)
}

/// Enum actions whose effects send activities.
struct NoticeFeature: ActionReducer {
  struct State: Equatable, Sendable { var count = 0 }
  typealias Activity = Notice

  enum Action: Sendable, Equatable {
    case save
    case saveLater
  }

  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .save:
      state.count += 1
      return .activity(.saved(state.count))
    case .saveLater:
      return .run { [gate] send in
        await gate.wait()
        send(activity: .greeted("later"))
      }
    }
  }
}

struct NoticeRoot: Equatable, Sendable {
  var inner = NoticeFeature.State()
  var profile = Profile()
}

/// A method reducer of a scope whose actions send the root's activities.
final class GreetingReducer: ReducerType {
  typealias TargetState = Profile
  typealias TargetActivity = Notice

  func greet(_ name: String) -> Action<Void> {
    .init { context in
      context.commit { $0.rename(name) }
      context.send(.greeted(name))
    }
  }

  func rename(_ name: String) -> Mutation { .init { $0.name = name } }
}

final class ActivityTests: XCTestCase {
  func testEffectsActivitiesReachSinkActivity() async {
    let gate = Gate()
    let store = ActionStore(initialState: NoticeFeature.State(), reducer: NoticeFeature(gate: gate))
    let seen = Collected<Notice>()
    store.sinkActivity { seen.append($0) }.storeWhileSourceActive()
    store.send(.save)
    XCTAssertEqual(seen.all, [.saved(1)])
    let later = store.send(.saveLater)
    gate.open()
    await later.finish()
    XCTAssertEqual(seen.all, [.saved(1), .greeted("later")])
  }

  func testActivitiesAsAnAsyncSequence() async {
    let store = ActionStore(initialState: NoticeFeature.State(), reducer: NoticeFeature(gate: Gate()))
    let stream = store.activities()
    store.send(.save)
    store.send(.save)
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    XCTAssertEqual([first, second], [.saved(1), .saved(2)])
  }

  // An activity of another type than the reducer's `Activity` no longer
  // compiles (`Effect<Action, Activity>.activity(_:)` takes `Activity`), so
  // nothing is left to check at run time for a root store.

  func testScopedActionStoresForwardActivitiesWhenTheRootTypeMatches() {
    let root = Store<NoticeRoot, Notice>(initialState: NoticeRoot())
    let seen = Collected<Notice>()
    root.sinkActivity { seen.append($0) }.storeWhileSourceActive()
    let scope = root.scope(\.inner, reducer: NoticeFeature(gate: Gate()))
    _ = scope.send(.save)
    XCTAssertEqual(seen.all, [.saved(1)])
    XCTAssertEqual(root.state.inner.count, 1)
  }

  func testScopedActionStoresReportActivitiesTheRootCannotTake() throws {
    let root = Store<NoticeRoot, Never>(initialState: NoticeRoot())
    let scope = root.scope(\.inner, reducer: NoticeFeature(gate: Gate()))
    let errors = Collected<NeueError>()
    let observation = scope.observeEvents { event in
      if case .effectFailed(let error as NeueError) = event { errors.append(error) }
    }
    scope.send(.save)
    XCTAssertEqual(errors.all, [.activityTypeMismatch(expected: "Never", actual: "Notice")])
    XCTAssertEqual(root.state.inner.count, 1, "the action itself is still reduced")
    observation.cancel()
  }

  func testScopedMethodReducersForwardActivitiesToTheParent() async throws {
    let root = Store<NoticeRoot, Notice>(initialState: NoticeRoot())
    let seen = Collected<Notice>()
    root.sinkActivity { seen.append($0) }.storeWhileSourceActive()
    let profile = root.scope(\.profile, reducer: GreetingReducer(), activities: .forwardToParent)
    try await profile.dispatch { $0.greet("Ada") }
    XCTAssertEqual(seen.all, [.greeted("Ada")])
    XCTAssertEqual(root.state.profile.name, "Ada")
  }
}
