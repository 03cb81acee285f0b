import Dispatch
import Foundation
import VergeNeue
@testable import VergeTesting
import VergeTestSupport
import XCTest

/// A feature whose reductions of `.held` and `.tick` block the reducing
/// thread until the test lets them go, so that the test decides when
/// another thread holds the store and for how long.
struct Handoff: ActionReducer {
  struct State: Equatable, Sendable {
    var held = 0
    var ticks = 0
  }

  enum Action: Sendable, Equatable {
    /// Starts an effect that sends `.held` from a thread of its own.
    case hold
    /// Blocks its thread until `releaseHeld` is signalled.
    case held
    /// Starts an effect that sends `.chain` from a thread of its own.
    case relayChain
    /// Sends `.tick` with `Effect.send`.
    case chain
    /// Blocks its thread until `releaseTick` is signalled.
    case tick
  }

  /// Opened when the reduction of `.held` starts.
  let holding = Gate()
  let releaseHeld = DispatchSemaphore(value: 0)
  /// Opened when the reduction of `.tick` starts.
  let ticking = Gate()
  let releaseTick = DispatchSemaphore(value: 0)

  /// Lets the effect's thread send its action. The test signals it once
  /// its own send has returned, so that thread finds the store free and
  /// reduces the action itself.
  let go = DispatchSemaphore(value: 0)

  /// Sends `action` from a thread of its own, not one of the pool's: it
  /// blocks there while it holds the store.
  func send(_ action: Action, with send: Send<Action, Never>) async {
    await withCheckedContinuation { [go] (sent: CheckedContinuation<Void, Never>) in
      Thread {
        go.wait()
        send(action)
        sent.resume()
      }.start()
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .hold:
      return .run { [self] send in await self.send(.held, with: send) }
    case .relayChain:
      return .run { [self] send in await self.send(.chain, with: send) }
    case .held:
      holding.open()
      releaseHeld.wait()
      state.held += 1
      return .none
    case .chain:
      return .send(.tick)
    case .tick:
      ticking.open()
      releaseTick.wait()
      state.ticks += 1
      return .none
    }
  }
}

/// A `send` made while another thread reduces the store's queue is reduced
/// by that thread; the test store's step must still cover the actions the
/// sent action's `Effect.send` queued, so that a skip right after it sees
/// them.
@MainActor
final class TestStoreContendedSendTests: XCTestCase {
  /// The step-by-step form of `send(.chain)`, stopped where the other
  /// thread has reduced `.chain` and not yet its `.tick`: the step's
  /// reduction must not be handed out there.
  func testASendsReductionIsHandedOutOnlyAfterWhatItsEffectSentIsReduced() async {
    let log = FailureLog()
    let feature = Handoff()
    let store = TestStore(initialState: Handoff.State(), reducer: feature, reporter: log.reporter)
    await store.send(.hold)
    feature.go.signal()
    await feature.holding.wait()  // another thread holds the store
    let actions = store.backend.actions()
    let index = actions.ledger.beginSend(
      { "send(.chain)" }, at: FailureLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
    store.store.send(.chain)  // queued behind `.held`
    feature.releaseHeld.signal()
    await feature.ticking.wait()  // that thread reduced `.chain`, and now its `.tick`
    XCTAssertNil(actions.ledger.takeReduction(of: index))
    feature.releaseTick.signal()
    await store.receive(.held) { $0.held = 1 }
    await store.receive(.tick) { $0.ticks = 1 }
    XCTAssertNotNil(actions.ledger.takeReduction(of: index))
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  /// The same through the public steps: once `send(.chain)` returns, its
  /// `.tick` is received, so `skipReceivedActions()` drops it.
  func testSkipAfterASendAnotherThreadReducedSeesWhatItsEffectSent() async {
    let log = FailureLog()
    let feature = Handoff()
    let store = TestStore(initialState: Handoff.State(), reducer: feature, reporter: log.reporter)
    await store.send(.hold)
    feature.go.signal()
    await feature.holding.wait()  // another thread holds the store
    // Runs on the main actor, so only once `send(.chain)` below has queued
    // its action and suspended.
    Task { @MainActor in feature.releaseHeld.signal() }
    Task {
      await feature.ticking.wait()
      feature.releaseTick.signal()
    }
    await store.send(.chain)
    XCTAssertEqual(store.state.ticks, 1)
    store.skipReceivedActions()
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  /// `receive` too hands out an action only once what its `Effect.send`
  /// queued is reduced: stopped where the effect's thread has reduced
  /// `.chain` and not yet its `.tick`, `.chain` is not handed out; once
  /// received, a skip right after it drops the `.tick`.
  func testAReceivedActionIsHandedOutOnlyAfterWhatItsEffectSentIsReduced() async {
    let log = FailureLog()
    let feature = Handoff()
    let store = TestStore(initialState: Handoff.State(), reducer: feature, reporter: log.reporter)
    await store.send(.relayChain)
    feature.go.signal()
    await feature.ticking.wait()  // the effect's thread reduced `.chain`, and now its `.tick`
    guard case .settling = store.backend.actions().ledger.popReceived(activity: false) else {
      return XCTFail("`.chain` was handed out before the `.tick` it queued was reduced")
    }
    feature.releaseTick.signal()
    await store.receive(.chain)
    XCTAssertEqual(store.state.ticks, 1)
    store.skipReceivedActions()
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }
}
