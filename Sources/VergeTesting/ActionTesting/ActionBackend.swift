import VergeNeue

/// The enum-action half of a `TestStore`: the `ActionStore` under test and
/// the lifecycle observer that attributes every received action and every
/// running effect to the `send` that started the work.
///
/// Attribution follows the store's lifecycle events, so it is exact:
/// - a reduction caused by `send` belongs to the oldest test `send` not
///   reduced yet (the store reduces in send order);
/// - an effect task belongs to the origin of the reduction that started
///   it (`effectStarted` is emitted during that reduction, right after its
///   `reduced` event, while no other action can be reduced);
/// - an action an effect task sent belongs to that task's origin, so work
///   chained through any number of effects stays with the first send;
/// - an action an `Effect.send` queued (no task) belongs to the latest
///   reduction of the action that returned it.
final class ActionBackend<Feature: ActionReducer>: ShapeBackend<Feature>, TestStoreBackend {
  typealias Item = Feature.Action
  typealias Activity = Feature.Activity
  typealias State = Feature.State
  typealias Extra = ActionBooks<Feature.Action, Feature.State>

  let store: ActionStore<Feature>
  let ledger = Ledger<Feature.Action, Feature.Activity, Feature.State, Extra>(Extra())
  private let lifecycle: EventObservation
  private let failures: EventObservation
  private let passes: EventObservation

  init(store: ActionStore<Feature>) {
    self.store = store
    let ledger = ledger
    lifecycle = store.observeLifecycleLendingStates { delivery in ledger.update { $0.record(delivery) } }
    // A step returns, and a received action is handed out, only once the
    // thread that reduced it has reduced what it queued with
    // `Effect.send`: that may be another thread than the test's (an
    // effect's, which was reducing when the test sent), and a skip right
    // after the step must see those actions too.
    passes = store.observeQueuePasses { began in
      if began {
        ledger.modify { $0.extra.inPass = true }
      } else {
        // The thread reducing the queue emptied it: hands out what its
        // pass booked.
        ledger.update { data in
          data.extra.inPass = false
          guard data.extra.holding else { return }
          for index in data.received.indices where !data.received[index].isSettled {
            data.received[index].isSettled = true
          }
          data.extra.unsettledSends.removeAll()
          data.extra.holding = false
        }
      }
    }
    // Only `observeEvents` reports failures that are not an effect's
    // error (an activity a scoped store's root cannot take).
    failures = store.observeEvents { event in
      guard case .effectFailed(let error) = event else { return }
      ledger.update { $0.problems.append("An effect failed with an error: \(error)") }
    }
  }

  override func actions() -> ActionBackend<Feature> { self }

  var shape: TestShape { .actions }

  func describe(_ item: Feature.Action, quoted: Bool) -> String { Describe.action(item) }

  var canProduce: Bool { store.effectsInFlight > 0 }

  /// Nothing running and nothing queued: an action an effect sent while
  /// another thread held the store is still to be reduced after that
  /// effect has ended.
  var isSettled: Bool {
    store.workInFlight == 0 && ledger.isSettled && !ledger.read(\.extra.holding)
  }

  func watchForIdle() {
    let claimed = ledger.modify { data -> Bool in
      if data.extra.idleWatcherRunning { return false }
      data.extra.idleWatcherRunning = true
      return true
    }
    guard claimed else { return }
    Task { [store, ledger] in
      await store.waitUntilIdle()
      ledger.update { $0.extra.idleWatcherRunning = false }
    }
  }

  func timeoutMessage(label: String, timeout: Duration, waitingFor what: String) -> String {
    "\(label): timed out after \(Describe.duration(timeout)); \(store.effectsInFlight) effect(s) still running."
  }

  func cancelRunningWork() {
    ledger.update { $0.extra.unattributedSkipped = true }
    store.cancelAllEffects()
  }

  func reportUnattributedWork(context: String, reporter: TestFailureReporter, at location: FailureLocation) {
    let (running, skipped) = ledger.read { ($0.extra.unattributedRunning, $0.extra.unattributedSkipped) }
    guard running > 0, !skipped, store.effectsInFlight > 0 else { return }
    reporter.report(
      "\(context): \(running) effect(s) not started through this test store are still running. Call skipInFlightEffects() to ignore them.",
      at: location)
  }

  func tearDown() {
    lifecycle.cancel()
    failures.cancel()
    passes.cancel()
  }
}
