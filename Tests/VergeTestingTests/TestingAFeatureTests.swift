import Synchronization
import Testing
import VergeTesting
import XCTest

/// The feature of the "Testing a feature" article, as written there (in a
/// namespace: this target has a `Gallery` of its own).
enum Article {
  struct PhotoAPI: Sendable {
    var photos: @Sendable () async throws -> [String]
  }

  struct Gallery: ActionReducer {
    struct State: Equatable, Sendable {
      var photos: [String] = []
      var isLoading = false
      var ticks = 0
    }

    enum Action: Sendable, Equatable {
      case load, loaded([String]), startTimer, tick, stopTimer, post(String)
    }

    enum Activity: Sendable, Equatable {
      case posted(String)
    }

    let api: PhotoAPI
    let clock: any Clock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
      switch action {
      case .load:
        state.isLoading = true
        return .run { [api] send in send(.loaded(try await api.photos())) }
      case .loaded(let photos):
        state.isLoading = false
        state.photos = photos
        return .none
      case .startTimer:
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
        .cancellable(id: "timer", cancelInFlight: true)
      case .tick:
        state.ticks += 1
        return .none
      case .stopTimer:
        return .cancel(id: "timer")
      case .post(let text):
        return .activity(.posted(text))   // of `Activity`: another type does not compile
      }
    }
  }
}

@Suite struct TestingAFeatureSwiftTestingTests {
  typealias Gallery = Article.Gallery
  typealias PhotoAPI = Article.PhotoAPI

  @Test func load() async {
    let store = TestStore(
      initialState: Gallery.State(),
      reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))

    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(["a", "b"])) {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    await store.finish()
  }

  @Test func postAnnounces() async {
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { [] }, clock: TestClock()))

    await store.send(.post("Nice"))
    await store.receiveActivity(.posted("Nice"))
    await store.finish()
  }
}

final class TestingAFeatureXCTests: XCTestCase {
  typealias Gallery = Article.Gallery
  typealias PhotoAPI = Article.PhotoAPI

  func testLoad() async {
    let store = TestStore(
      initialState: Gallery.State(),
      reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))

    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(["a", "b"])) {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    await store.finish()
  }

  func testTimer() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { [] }, clock: clock))

    await store.send(.startTimer)
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.stopTimer)
    await store.finish()
  }

  func testTheFinishTimeline() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { [] }, clock: clock),
      reporter: log.reporter)
    let line: UInt = #line + 1
    await store.send(.startTimer)
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.finish(timeout: .milliseconds(50))
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): an effect started by send(.startTimer) is still running. Receive its actions, or call skipInFlightEffects().
            Timeline of send(.startTimer) at TestingAFeatureTests.swift:\(line):
              effect #1 started by .startTimer (still running)
              received .tick (asserted)
            """, line: line)
      ])
  }

  func testTestingTestHelpers() async {
    final class Failures: Sendable {
      let messages = Mutex<[String]>([])   // import Synchronization
    }

    let failures = Failures()
    let store = TestStore(
      initialState: Gallery.State(),
      reducer: Gallery(api: PhotoAPI { [] }, clock: TestClock()),
      reporter: TestFailureReporter { message, _, _ in failures.messages.withLock { $0.append(message) } })
    await store.send(.post("Nice"))
    await store.finish()
    // failures.messages: ["finish(): 1 activity(ies) sent but not asserted, …"]

    let messages = failures.messages.withLock { $0 }
    XCTAssertEqual(messages.count, 1)
    XCTAssertTrue(
      messages.first?.hasPrefix("finish(): 1 activity(ies) sent but not asserted, ") == true, messages.description)
  }
}
