import VergeNeue
import VergeTestSupport
import VergeTesting
import XCTest

/// A row whose upload waits for the quick or the slow gate, then reports.
private struct Upload: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var uploaded = false
  }
  enum Action: Sendable, Equatable {
    case start(slow: Bool)
    case finished
  }

  let quick: Gate
  let slow: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .start(let isSlow):
      let gate = isSlow ? slow : quick
      return .run { send in
        await gate.wait()
        send(.finished)
      }
    case .finished:
      state.uploaded = true
      return .none
    }
  }
}

private struct Uploads: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Upload.State> = [.init(id: 1), .init(id: 2), .init(id: 3)]
  }
  enum Action: Sendable, Equatable {
    case row(id: Int, action: Upload.Action)
    case remove(Int)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: Upload.Action)>({ .row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    if case .remove(let id) = action { state.rows[id: id] = nil }
    return .none
  }
}

/// Row effects through `forEach` under a `TestStore`: an effect that ended
/// is received, and removing a row whose effect still runs cancels it, also
/// after earlier row effects have ended (when `forEach` no longer had any
/// effect to look out for), so `finish()` finds nothing running.
final class TestStoreForEachEffectsTests: XCTestCase {
  func testRemovingARowCancelsItsEffectAfterAnotherRowsEffectEnded() async {
    let log = FailureLog()
    let quick = Gate()
    let slow = Gate()
    quick.open()
    let store = TestStore(
      initialState: Uploads.State(),
      reducer: Uploads().forEach(\.rows, action: Uploads.rowCase, element: Upload(quick: quick, slow: slow)),
      reporter: log.reporter)
    await store.send(.row(id: 1, action: .start(slow: false)))
    await store.receive(.row(id: 1, action: .finished)) { $0.rows[id: 1]?.uploaded = true }
    // Row 1's effect has ended: nothing of the rows runs now.
    await store.send(.row(id: 2, action: .start(slow: true)))
    await store.send(.remove(2)) { $0.rows[id: 2] = nil }
    slow.open()
    await store.finish()
    XCTAssertEqual(log.messages, [], "the removed row's effect was cancelled and sent nothing")
  }

  func testAnEffectOfARowThatIsNotRemovedIsReceived() async {
    let log = FailureLog()
    let quick = Gate()
    let slow = Gate()
    let store = TestStore(
      initialState: Uploads.State(),
      reducer: Uploads().forEach(\.rows, action: Uploads.rowCase, element: Upload(quick: quick, slow: slow)),
      reporter: log.reporter)
    await store.send(.row(id: 2, action: .start(slow: true)))
    await store.send(.remove(3)) { $0.rows[id: 3] = nil }
    slow.open()
    await store.receive(.row(id: 2, action: .finished)) { $0.rows[id: 2]?.uploaded = true }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }
}
