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

extension Article.Gallery.Action {
  static let loadedCase = ActionCase<Self, [String]>(Self.loaded) {
    if case .loaded(let photos) = $0 { photos } else { nil }
  }
  /// Not in the article: a case no effect of `load` sends.
  static let postCase = ActionCase<Self, String>(Self.post) {
    if case .post(let text) = $0 { text } else { nil }
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

  @Test func receiveByCase() async {
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))
    await store.send(.load) { $0.isLoading = true }
    await store.receive(Gallery.Action.loadedCase) {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    await store.finish()
  }

  @Test func receiveWhere() async {
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))
    await store.send(.load) { $0.isLoading = true }
    await store.receive(where: { action in
      if case .loaded(let photos) = action { photos.count == 2 } else { false }
    }) {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    await store.finish()
  }

  @Test func aWrongCaseIsRecordedAsAnIssueAtTheAssertion() async {
    let matched = MatchedIssues()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))
    await store.send(.load) { $0.isLoading = true }
    let line = #line + 2
    await withKnownIssue {
      await store.receive(Gallery.Action.postCase)
    } matching: { matched.match($0) }
    await store.finish()
    #expect(
      matched.all == [
        .init(
          message: #"receive(an action of the case carrying String): the next received action is .loaded(["a", "b"])."#,
          line: line)
      ])
  }

  // As in the article: passes, listing two skipped assertions as known issues.
  @Test func loadShowsThePhotos() async {
    let store = TestStore(
      initialState: Gallery.State(),
      reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))
    store.exhaustivity = .off(showSkippedAssertions: true)

    await store.send(.load)
    await store.receive(.loaded(["a", "b"])) { $0.photos = ["a", "b"] }
    await store.finish()
  }

  @Test func aSkippedAssertionIsNotAFailureButAWrongOneIs() async {
    let matched = MatchedIssues()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.load)
    let line = #line + 2
    await withKnownIssue {
      await store.receive(.loaded(["a", "b"])) { $0.photos = ["wrong"] }
    } matching: { matched.match($0) }
    await store.finish()
    #expect(matched.all.map(\.line) == [line])
    #expect(matched.all.first?.message.hasPrefix(#"receive(.loaded(["a", "b"])): the state is not what was expected:"#) == true)
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

  func testATimerAdvancedOnePeriodAtATimeTicksEachTime() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { [] }, clock: clock))
    await store.send(.startTimer)

    // The article's loop, as written there.
    for tick in 1...3 {
      await clock.waitForSleepers()
      clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.ticks = tick }
    }

    // Three periods in one call wake the sleeper once.
    await clock.waitForSleepers()
    clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 4 }
    await clock.waitForSleepers()
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(6)))
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

  func testReceiveByCase() async {
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()))
    await store.send(.load) { $0.isLoading = true }
    await store.receive(Gallery.Action.loadedCase) {
      $0.isLoading = false
      $0.photos = ["a", "b"]
    }
    await store.finish()
  }

  func testAWrongCaseFailsAtTheAssertion() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { [] }, clock: clock), reporter: log.reporter)
    await store.send(.startTimer)
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    let line: UInt = #line + 1
    await store.receive(Gallery.Action.loadedCase)
    await store.send(.stopTimer)
    await store.finish()
    XCTAssertEqual(
      log.all,
      [.init(message: "receive(an action of the case carrying Array<String>): the next received action is .tick.", line: line)])
  }

  func testAWrongPredicateFailsAtTheAssertion() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a"] }, clock: TestClock()),
      reporter: log.reporter)
    await store.send(.load) { $0.isLoading = true }
    let line: UInt = #line + 1
    await store.receive(where: { if case .loaded(let photos) = $0 { photos.count == 2 } else { false } })
    await store.finish()
    XCTAssertEqual(
      log.all,
      [.init(message: #"receive(an action matching the predicate): the next received action is .loaded(["a"])."#, line: line)])
  }

  func testSkippedAssertionsAreShownWithoutFailing() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()),
      reporter: log.reporter)
    store.exhaustivity = .off(showSkippedAssertions: true)
    let sendLine: UInt = #line + 1
    await store.send(.load)
    let receiveLine: UInt = #line + 1
    await store.receive(.loaded(["a", "b"])) { $0.photos = ["a", "b"] }
    await store.finish()
    XCTAssertEqual(log.all, [])
    XCTAssertEqual(
      log.skipped,
      [
        .init(
          message: """
            Skipped assertion (exhaustivity is off): send(.load) changed the state, but no assertion closure describes the change:
              isLoading
                expected: false
                actual:   true
            """, line: sendLine),
        .init(
          message: """
            Skipped assertion (exhaustivity is off): receive(.loaded(["a", "b"])): the state is not what was expected:
              isLoading
                expected: true
                actual:   false
            """, line: receiveLine),
      ])
  }

  func testSkippedReceivesAndLeftoversAreShown() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { [] }, clock: clock), reporter: log.reporter)
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.post("Nice"))
    let timerLine: UInt = #line + 1
    await store.send(.startTimer)
    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))
    let receiveLine: UInt = #line + 1
    await store.receive(Gallery.Action.loadedCase, timeout: .milliseconds(50))
    await store.finish(timeout: .milliseconds(50))
    // Skipping never excuses a wait that ends in nothing.
    XCTAssertEqual(
      log.all,
      [.init(message: "receive(an action of the case carrying Array<String>): timed out after 50 ms; 1 effect(s) still running.", line: receiveLine)])
    XCTAssertEqual(log.skipped.map(\.line), [timerLine, receiveLine, timerLine], "\(log.skipped)")
    XCTAssertEqual(
      log.skipped.map { $0.message.split(separator: "\n").first.map(String.init) ?? "" },
      [
        "Skipped assertion (exhaustivity is off): send(.startTimer): 1 sent activity(ies) must be asserted with receiveActivity, or skipped with skipReceivedActions(), first:",
        "Skipped assertion (exhaustivity is off): receive(an action of the case carrying Array<String>): the next received action is .tick.",
        "Skipped assertion (exhaustivity is off): finish(): an effect started by send(.startTimer) is still running. Receive its actions, or call skipInFlightEffects().",
      ])
  }

  func testOffAloneShowsNothing() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: Gallery.State(), reducer: Gallery(api: PhotoAPI { ["a", "b"] }, clock: TestClock()),
      reporter: log.reporter)
    store.exhaustivity = .off
    XCTAssertEqual(store.exhaustivity, .off(showSkippedAssertions: false))
    await store.send(.load)
    await store.receive(.loaded(["a", "b"])) { $0.photos = ["a", "b"] }
    await store.finish()
    XCTAssertEqual(log.all, [])
    XCTAssertEqual(log.skipped, [])
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
