import Testing
import VergeORM
import VergeTesting
import XCTest

// The README's VergeTesting section, as written there: the snippets run with
// the default reporter (failures go to the framework running them), and the
// failure texts it shows are checked through the capturable reporter.

@Test func loadAndTick() async {
  let clock = TestClock()
  let store = TestStore(
    initialState: Gallery.State(),
    reducer: Gallery(api: .stub(["a", "b"]), clock: clock))

  await store.send(.load) { $0.isLoading = true }
  await store.receive(.loaded(["a", "b"])) {
    $0.isLoading = false
    $0.photos = ["a", "b"]
  }

  await store.send(.startTimer)
  await clock.waitForSleepers()        // the effect is asleep on the clock
  clock.advance(by: .seconds(1))
  await store.receive(.tick) { $0.ticks = 1 }
  await store.send(.stopTimer)
  await store.finish()                 // fails for leftovers, at the send that started them
}

final class GalleryTests: XCTestCase {
  func testPostAnnouncesTheComment() async {
    let store = TestStore(
      initialState: Gallery.State(),
      reducer: Gallery(api: .stub([]), clock: TestClock()))

    await store.send(.post("Nice")) { $0.isLoading = true }
    await store.receiveActivity(.posted("Nice"))
    await store.receive(.postFinished) { $0.isLoading = false }
    await store.finish()
  }
}

final class ReadmeFailureTextTests: XCTestCase {
  func testTheDatabaseDiff() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: Shelf(database: ShelfReducer.seeded([("b1", "A")])), reducer: ShelfReducer(),
      reporter: log.reporter)
    store.commit({ $0.rename("b1", to: "B") }) {
      _ = try? $0.database.performBatchUpdates { (context) throws(DatabaseError) in
        try context.entities.book.update(.init("b1")) { $0.name = "C" }
      }
    }
    await store.finish()
    XCTAssertEqual(
      log.messages,
      [
        """
        commit(rename(_:to:)): the state is not what was expected:
          database.book["b1"].name
            expected: "C"
            actual:   "B"
        """
      ])
  }

  func testTheLeftoverTimeline() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: Gallery.State(),
      reducer: Gallery(api: .stub([]), clock: TestClock()), reporter: log.reporter)
    let line: UInt = #line + 1
    await store.send(.post("Nice")) { $0.isLoading = true }
    await store.receive(.postFinished) { $0.isLoading = false }
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): 1 activity(ies) sent but not asserted, sent by effects of send(.post("Nice")):
              activity .posted("Nice")
            Timeline of send(.post("Nice")) at ReadmeTests.swift:\(line):
              effect #1 started by .post("Nice") (ended)
              activity .posted("Nice") (not asserted)
              received .postFinished (asserted)
            """, line: line)
      ])
  }
}
