import VergeTesting
import XCTest

/// Activities that effects and method-reducer actions send are received and
/// asserted like actions, in order, and reported when nobody asserts them.
final class TestStoreActivityTests: XCTestCase {
  private func makeStore(log: FailureLog) -> TestStore<Gallery> {
    TestStore(
      initialState: .init(), reducer: Gallery(api: .stub(["a"]), clock: TestClock()),
      timeout: .milliseconds(500), reporter: log.reporter)
  }

  func testActivitiesEffectsSendAreReceived() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.post("hi")) { $0.isLoading = true }
    await store.receiveActivity(.posted("hi"))
    await store.receive(.postFinished) { $0.isLoading = false }
    await store.send(.announce("now"))
    await store.receiveActivity(.announced("now"))
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testTheWrongActivityFails() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.announce("now"))
    let line: UInt = #line + 1
    await store.receiveActivity(.announced("later"))
    await store.finish()
    XCTAssertEqual(
      log.all,
      [.init(message: #"receiveActivity(.announced("later")): the next received activity is .announced("now")."#, line: line)])
  }

  func testActivitiesAndActionsAreEachReceivedInTheirOwnOrder() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.post("hi")) { $0.isLoading = true }
    // The effect sends the activity first; actions and activities are
    // matched apart, so the test may receive them in either order.
    await store.receive(.postFinished) { $0.isLoading = false }
    await store.receiveActivity(.posted("hi"))
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testReceivingAnActionDoesNotTakeAnActivity() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let sendLine: UInt = #line + 1
    await store.send(.announce("now"))
    await store.receive(.tick)
    await store.finish()
    XCTAssertEqual(
      log.messages,
      [
        "receive(.tick): no action was received, and no effect is running that could send one.",
        """
        finish(): 1 activity(ies) sent but not asserted, sent by effects of send(.announce("now")):
          activity .announced("now")
        Timeline of send(.announce("now")) at TestStoreActivityTests.swift:\(sendLine):
          activity .announced("now") (not asserted)
        """,
      ])
  }

  func testAnUnassertedActivityFailsAtFinishWithTheTimelineOfItsSend() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let line: UInt = #line + 1
    await store.send(.post("hi")) { $0.isLoading = true }
    await store.receive(.postFinished) { $0.isLoading = false }
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): 1 activity(ies) sent but not asserted, sent by effects of send(.post("hi")):
              activity .posted("hi")
            Timeline of send(.post("hi")) at TestStoreActivityTests.swift:\(line):
              effect #1 started by .post("hi") (ended)
              activity .posted("hi") (not asserted)
              received .postFinished (asserted)
            """, line: line)
      ])
  }

  func testAnUnassertedActivityFailsAtTheNextSend() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    let sendLine: UInt = #line + 1
    await store.send(.announce("now"))
    let line: UInt = #line + 1
    await store.send(.noop)
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            send(.noop): 1 sent activity(ies) must be asserted with receiveActivity, or skipped with skipReceivedActions(), first:
              activity .announced("now") (from send(.announce("now")) at TestStoreActivityTests.swift:\(sendLine))
            """, line: line)
      ])
  }

  func testReceiveActivityFailsAtOnceWhenNothingRuns() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.receiveActivity(.posted("hi"), timeout: .seconds(30))
    XCTAssertEqual(
      log.messages,
      [#"receiveActivity(.posted("hi")): no activity was sent, and no effect is running that could send one."#])
  }

  func testNonExhaustiveTestsSkipActivities() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    store.exhaustivity = .off
    await store.send(.post("hi"))
    await store.receive(.postFinished) { $0.isLoading = false }
    await store.send(.announce("now"))
    await store.send(.announce("again"))
    await store.receiveActivity(.announced("again"))
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  // MARK: - Method reducers

  func testAnActivityAMethodReducerActionSendsIsReceived() async throws {
    let log = FailureLog()
    let store = TestStore(
      initialState: Album(), reducer: AlbumReducer(api: .stub(["a"])), timeout: .milliseconds(500),
      reporter: log.reporter)
    let refresh = store.dispatch { $0.refreshAndAnnounce() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    await store.receive("setPhotos(_:)") {
      $0.isLoading = false
      $0.photos = ["a"]
    }
    await store.receiveActivity(.refreshed(1))
    try await refresh.value
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testAnUnassertedActivityOfAMethodReducerFailsAtItsDispatch() async throws {
    let log = FailureLog()
    let store = TestStore(
      initialState: Album(), reducer: AlbumReducer(api: .stub(["a"])), timeout: .milliseconds(500),
      reporter: log.reporter)
    let line: UInt = #line + 1
    let refresh = store.dispatch { $0.refreshAndAnnounce() }
    await store.receive("setLoading(_:)") { $0.isLoading = true }
    await store.receive("setPhotos(_:)") {
      $0.isLoading = false
      $0.photos = ["a"]
    }
    try await refresh.value
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): 1 activity(ies) sent but not asserted, sent by dispatch(refreshAndAnnounce()):
              activity .refreshed(1)
            Timeline of dispatch(refreshAndAnnounce()) at TestStoreActivityTests.swift:\(line):
              refreshAndAnnounce() started (ended)
              committed setLoading(_:) (asserted)
              committed setPhotos(_:) (asserted)
              activity .refreshed(1) (not asserted)
            """, line: line)
      ])
  }

  func testMutationsAndAnActivityLeftOverAreReportedTogetherAtTheirDispatch() async throws {
    let log = FailureLog()
    let store = TestStore(
      initialState: Album(), reducer: AlbumReducer(api: .stub(["a"])), timeout: .milliseconds(500),
      reporter: log.reporter)
    let line: UInt = #line + 1
    let refresh = store.dispatch { $0.refreshAndAnnounce() }
    try await refresh.value
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): 2 mutation(s) committed but not asserted, and 1 activity(ies) sent but not asserted, from dispatch(refreshAndAnnounce()):
              setLoading(_:)
              setPhotos(_:)
              activity .refreshed(1)
            Timeline of dispatch(refreshAndAnnounce()) at TestStoreActivityTests.swift:\(line):
              refreshAndAnnounce() started (ended)
              committed setLoading(_:) (not asserted)
              committed setPhotos(_:) (not asserted)
              activity .refreshed(1) (not asserted)
            """, line: line)
      ])
  }
}
