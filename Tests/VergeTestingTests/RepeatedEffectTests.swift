import VergeTesting
import XCTest

/// The same effect test 200 times in a row: waiting is event-driven, so it
/// neither flakes nor slows down under load or the Thread Sanitizer.
final class RepeatedEffectTests: XCTestCase {
  func testEffectRoundTrip200Times() async {
    let log = FailureLog()
    for iteration in 0..<200 {
      let clock = TestClock()
      let store = TestStore(
        initialState: .init(), reducer: Gallery(api: .stub(["p\(iteration)"]), clock: clock),
        reporter: log.reporter)
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded(["p\(iteration)"])) {
        $0.isLoading = false
        $0.photos = ["p\(iteration)"]
      }
      await store.send(.startTimer)
      await clock.waitForSleepers()
      clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.ticks = 1 }
      await store.send(.stopTimer)
      await store.finish()
      if !log.messages.isEmpty {
        XCTFail("iteration \(iteration): \(log.messages)")
        return
      }
    }
  }
}
