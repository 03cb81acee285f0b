import Synchronization
import Testing
import VergeORM
import VergeTesting

/// The issues a `withKnownIssue` block matched: their text and line.
final class MatchedIssues: Sendable {
  struct Match: Sendable, Equatable {
    let message: String
    let line: Int
  }

  private let matches = Mutex<[Match]>([])

  /// Records `issue`; always matches.
  func match(_ issue: Issue) -> Bool {
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    matches.withLock { $0.append(Match(message: message, line: issue.sourceLocation?.line ?? 0)) }
    return true
  }

  var all: [Match] { matches.withLock { $0 } }
}

/// `TestStore` inside Swift Testing: failures are recorded as issues at the
/// test's own source location, and the capturable reporter checks the exact
/// messages of activities, database diffs and timelines here too.
@Suite struct SwiftTestingTests {
  private func gallery(reporter: TestFailureReporter = .automatic) -> TestStore<Gallery> {
    TestStore(
      initialState: .init(), reducer: Gallery(api: .stub(["a"]), clock: TestClock()),
      timeout: .milliseconds(500), reporter: reporter)
  }

  @Test func aWrongExpectationIsRecordedAsAnIssueAtTheAssertion() async {
    let matched = MatchedIssues()
    let store = gallery()
    let line = #line + 2
    await withKnownIssue {
      await store.send(.rename("Blob Jr.")) { $0.owner.name = "Blob Sr." }
    } matching: { matched.match($0) }
    await store.finish()
    #expect(
      matched.all == [
        .init(
          message: """
            send(.rename("Blob Jr.")): the state is not what was expected:
              owner.name
                expected: "Blob Sr."
                actual:   "Blob Jr."
            """, line: line)
      ])
  }

  @Test func correctExpectationsRecordNoIssue() async {
    // Any issue recorded here fails this test.
    let store = gallery()
    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded(["a"])) {
      $0.isLoading = false
      $0.photos = ["a"]
    }
    await store.send(.announce("now"))
    await store.receiveActivity(.announced("now"))
    await store.finish()
  }

  @Test func leftoversAreRecordedAtTheSendThatCausedThem() async {
    let matched = MatchedIssues()
    let store = gallery()
    let line = #line + 1
    await store.send(.announce("now"))
    await withKnownIssue {
      await store.finish()
    } matching: { matched.match($0) }
    #expect(
      matched.all == [
        .init(
          message: """
            finish(): 1 activity(ies) sent but not asserted, sent by effects of send(.announce("now")):
              activity .announced("now")
            Timeline of send(.announce("now")) at SwiftTestingTests.swift:\(line):
              activity .announced("now") (not asserted)
            """, line: line)
      ])
  }

  // MARK: - Through the capturable reporter

  @Test func theWrongActivityFails() async {
    let log = FailureLog()
    let store = gallery(reporter: log.reporter)
    await store.send(.post("hi")) { $0.isLoading = true }
    await store.receive(.postFinished) { $0.isLoading = false }
    let line = #line + 1
    await store.receiveActivity(.posted("bye"))
    await store.finish()
    #expect(
      log.all == [
        .init(message: #"receiveActivity(.posted("bye")): the next received activity is .posted("hi")."#, line: UInt(line))
      ])
  }

  @Test func aWrongDatabaseExpectationNamesTheEntityField() async {
    let log = FailureLog()
    var initial = Shelf()
    initial.database = ShelfReducer.seeded([("b1", "A")])
    let store = TestStore(initialState: initial, reducer: ShelfReducer(), reporter: log.reporter)
    store.commit({ $0.add("b2", name: "C", by: "a1") }) {
      $0.database = ShelfReducer.seeded([("b1", "A"), ("b2", "D")])
    }
    await store.finish()
    #expect(
      log.messages == [
        """
        commit(add(_:name:by:)): the state is not what was expected:
          database.book["b2"].name
            expected: "D"
            actual:   "C"
          database.indexes.bookByName["D"]
            expected: "b2"
            actual:   (absent)
          database.indexes.bookByName["C"]
            expected: (absent)
            actual:   "b2"
        """
      ])
  }

  @Test func anEffectStillRunningAtFinishShowsItsTimeline() async {
    let log = FailureLog()
    let store = gallery(reporter: log.reporter)
    let line = #line + 1
    await store.send(.startTimer)
    await store.finish(timeout: .milliseconds(50))
    #expect(
      log.all == [
        .init(
          message: """
            finish(): an effect started by send(.startTimer) is still running. Receive its actions, or call skipInFlightEffects().
            Timeline of send(.startTimer) at SwiftTestingTests.swift:\(line):
              effect #1 started by .startTimer (still running)
            """,
          line: UInt(line))
      ])
  }
}
