import VergeTesting
import VergeTestSupport
import XCTest

/// A feature whose effects interleave: `.first`'s effect waits for gate A,
/// then relays through three effect hops and an `Effect.send`, while
/// `.second`'s effect waits for gate B, which `.first`'s effect opens.
/// `.park` starts an effect that sleeps on a test clock until cancelled.
struct Relay: ActionReducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case first
    case second
    case hop(Int)
    case done(String)
    case relayToPark
    case park
  }

  let gateA: Gate
  let gateB: Gate
  var clock = TestClock()

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .first:
      return .run { [gateA, gateB] send in
        await gateA.wait()
        send(.hop(1))
        gateB.open()
      }
    case .second:
      return .run { [gateB] send in
        await gateB.wait()
        send(.done("second"))
      }
    case .hop(let count):
      state.log.append("hop\(count)")
      guard count < 3 else { return .send(.done("first")) }
      return .run { send in send(.hop(count + 1)) }
    case .done(let name):
      state.log.append(name)
      return .none
    case .relayToPark:
      return .run { send in send(.park) }
    case .park:
      return .run { [clock] _ in try await clock.sleep(for: .seconds(60)) }
    }
  }
}

/// Each received action and each running effect is attributed to the
/// `send` that started the work, however the effects interleave and
/// however many effects relay it.
final class TestStoreAttributionTests: XCTestCase {
  func testInterleavedEffectsAreAttributedToTheirOwnSend() async {
    let log = FailureLog()
    let gateA = Gate()
    let store = TestStore(
      initialState: Relay.State(), reducer: Relay(gateA: gateA, gateB: Gate()), reporter: log.reporter)
    let firstLine: UInt = #line + 1
    await store.send(.first)
    let secondLine: UInt = #line + 1
    await store.send(.second)
    // Both sends' effects run now; `.first`'s sends its actions first.
    gateA.open()
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): 4 action(s) received but not asserted, sent by effects of send(.first):
              .hop(1)
              .hop(2)
              .hop(3)
              .done("first")
            Timeline of send(.first) at TestStoreAttributionTests.swift:\(firstLine):
              effect #1 started by .first (ended)
              received .hop(1) (not asserted)
              effect #3 started by .hop(1) (ended)
              received .hop(2) (not asserted)
              effect #4 started by .hop(2) (ended)
              received .hop(3) (not asserted)
              received .done("first") (not asserted)
            """, line: firstLine),
        .init(
          message: """
            finish(): 1 action(s) received but not asserted, sent by effects of send(.second):
              .done("second")
            Timeline of send(.second) at TestStoreAttributionTests.swift:\(secondLine):
              effect #2 started by .second (ended)
              received .done("second") (not asserted)
            """, line: secondLine),
      ])
  }

  func testActionsLeftOverAreListedWithTheirOwnSendAtTheNextSend() async {
    let log = FailureLog()
    let gateA = Gate()
    let store = TestStore(
      initialState: Relay.State(), reducer: Relay(gateA: gateA, gateB: Gate()), reporter: log.reporter)
    let firstLine: UInt = #line + 1
    await store.send(.first)
    let secondLine: UInt = #line + 1
    await store.send(.second)
    gateA.open()
    await store.store.waitUntilIdle()
    let line: UInt = #line + 1
    await store.send(.done("x")) { $0.log.append("x") }
    XCTAssertEqual(log.all.map(\.line), [line])
    // `.done("second")` may come anywhere among `.first`'s actions: compare
    // the listed lines as a set.
    let listed = log.messages.first?.split(separator: "\n").dropFirst().map(String.init) ?? []
    let first = "(from send(.first) at TestStoreAttributionTests.swift:\(firstLine))"
    let second = "(from send(.second) at TestStoreAttributionTests.swift:\(secondLine))"
    XCTAssertEqual(
      Set(listed),
      [
        "  .hop(1) \(first)", "  .hop(2) \(first)", "  .hop(3) \(first)", "  .done(\"first\") \(first)",
        "  .done(\"second\") \(second)",
      ])
    XCTAssertEqual(listed.count, 5)
    await store.finish()
  }

  func testRelayedWorkCountsUntilItsLastEffectEnds() async {
    let log = FailureLog()
    let gateA = Gate()
    let store = TestStore(
      initialState: Relay.State(), reducer: Relay(gateA: gateA, gateB: Gate()), reporter: log.reporter)
    await store.send(.first)
    gateA.open()
    await store.receive(.hop(1)) { $0.log = ["hop1"] }
    await store.receive(.hop(2)) { $0.log = ["hop1", "hop2"] }
    await store.receive(.hop(3)) { $0.log = ["hop1", "hop2", "hop3"] }
    await store.receive(.done("first")) { $0.log.append("first") }
    await store.finish()
    XCTAssertEqual(log.messages, [])
  }

  func testAnEffectStillRunningIsReportedAtTheSendThatStartedItsChain() async {
    let log = FailureLog()
    let store = TestStore(
      initialState: Relay.State(), reducer: Relay(gateA: Gate(), gateB: Gate()), reporter: log.reporter)
    let relayLine: UInt = #line + 1
    await store.send(.relayToPark)
    await store.receive(.park)  // its effect, started by a received action, sleeps
    let parkLine: UInt = #line + 1
    await store.send(.park)
    await store.finish(timeout: .milliseconds(50))
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            finish(): an effect started by send(.relayToPark) is still running. Receive its actions, or call skipInFlightEffects().
            Timeline of send(.relayToPark) at TestStoreAttributionTests.swift:\(relayLine):
              effect #1 started by .relayToPark (ended)
              received .park (asserted)
              effect #2 started by .park (still running)
            """,
          line: relayLine),
        .init(
          message: """
            finish(): an effect started by send(.park) is still running. Receive its actions, or call skipInFlightEffects().
            Timeline of send(.park) at TestStoreAttributionTests.swift:\(parkLine):
              effect #3 started by .park (still running)
            """,
          line: parkLine),
      ])
    await store.store.waitUntilIdle()  // finish() cancelled both sleeps
    XCTAssertEqual(store.store.effectsInFlight, 0)
  }
}
