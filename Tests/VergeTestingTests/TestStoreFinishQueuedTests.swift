import Dispatch
import Foundation
import VergeNeue
@testable import VergeTesting
import VergeTestSupport
import XCTest

/// A feature with an effect that sends while another thread holds the
/// store, and a reduction that holds it until the test lets it go.
private struct QueuedPong: ActionReducer {
  struct State: Equatable, Sendable {
    var blocked = 0
    var pongs = 0
  }

  enum Action: Sendable, Equatable {
    /// Starts an effect that sends `.pong` once `go` opens.
    case ping
    case pong
    /// Blocks its thread until `release` is signalled.
    case block
  }

  let go = Gate()
  let holding = Gate()
  let release = DispatchSemaphore(value: 0)

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .ping:
      return .run { [go] send in
        await go.wait()
        send(.pong)
      }
    case .pong:
      state.pongs += 1
      return .none
    case .block:
      holding.open()
      release.wait()
      state.blocked += 1
      return .none
    }
  }
}

/// `finish()` waits for an action an effect sent while another thread held
/// the store, even when that effect has already ended: the action is still
/// to be reduced, and once it is, it is a leftover to report.
@MainActor
final class TestStoreFinishQueuedTests: XCTestCase {
  func testFinishWaitsForAnActionQueuedByAnEffectThatEnded() async {
    let log = FailureLog()
    let feature = QueuedPong()
    let store = TestStore(initialState: QueuedPong.State(), reducer: feature, reporter: log.reporter)
    let effectEnded = Gate()
    let watching = store.store.observeLifecycle { event in
      if case .effectFinished = event { effectEnded.open() }
    }
    defer { watching.cancel() }
    await store.send(.ping)
    // Another thread holds the store: it reduces `.block`, which waits.
    let held = store.store
    Thread { held.send(.block) }.start()
    await feature.holding.wait()
    // The effect sends `.pong`, which queues behind `.block`, and ends.
    feature.go.open()
    await effectEnded.wait()
    XCTAssertEqual(store.store.effectsInFlight, 0)
    // Runs on the main actor, so only once `finish()` has looked and is
    // waiting.
    let released = Gate()
    Task { @MainActor in
      feature.release.signal()
      released.open()
    }
    await store.finish()
    await released.wait()
    XCTAssertEqual(store.state, QueuedPong.State(blocked: 1, pongs: 1))
    XCTAssertTrue(
      log.messages.contains { $0.contains(".pong") },
      "finish() did not wait for `.pong`; it reported: \(log.messages)")
  }
}
