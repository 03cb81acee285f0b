import VergeNeue

/// Tests a feature written as an `ActionReducer`: send actions, assert the
/// exact state each one produced, receive the actions its effects send back,
/// and finish with nothing left over.
///
/// ```swift
/// func testLoad() async {
///   let store = TestStore(
///     initialState: Feature.State(),
///     reducer: Feature(api: .stub(photos: ["a", "b"])))   // swap dependencies here
///
///   await store.send(.load) { $0.isLoading = true }
///   await store.receive(.loaded(["a", "b"])) {
///     $0.isLoading = false
///     $0.photos = ["a", "b"]
///   }
///   await store.finish()
/// }
/// ```
///
/// Each assertion closure mutates a copy of the state from *before* that
/// action; any difference from the state the action actually produced
/// fails the test with a field-by-field diff. Changing the state without a
/// closure fails, and so does a closure given to an action that changed
/// nothing. While ``exhaustivity`` is `.on` (the default), every action
/// that effects send must be received in order — one left over fails at the
/// next `send` or at `finish()` — and `finish()` fails for effects still
/// running, each failure pointing at the `send` that started the work.
///
/// Waiting is event-driven: `receive` and `finish` wake when the store
/// reduces an action or its last effect ends, and fail after a timeout.
///
/// Use a test store from one task at a time (the test's own); its async
/// methods run on the caller's actor.
public final class TestStore<Feature: ActionReducer> {
  /// The state type.
  public typealias State = Feature.State
  /// The action type.
  public typealias Action = Feature.Action

  /// The store under test. Send through the test store, not through it, so
  /// that every send is asserted.
  public let store: ActionStore<Feature>
  /// How strictly the test is checked; `.on` unless set.
  public var exhaustivity: Exhaustivity
  /// How long `send`, `receive` and `finish` wait before they fail.
  public var timeout: Duration
  /// Where failures go.
  public let reporter: TestFailureReporter

  let ledger = ActionLedger<Action, State>()
  private let observation: EventObservation
  private let file: StaticString
  private let line: UInt
  var finished = false

  /// Creates a test store around a new `ActionStore`.
  ///
  /// Dependencies are the reducer's: build it with a test clock and stub
  /// clients (`Feature(clock: clock, api: .stub)`).
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - reducer: The reducer, with test dependencies.
  ///   - exhaustivity: How strictly to check; `.on` by default.
  ///   - timeout: How long to wait for an action or for effects to end.
  ///   - reporter: Where failures go; `XCTFail` by default.
  ///   - file: Where the store is made (failures at release point here).
  ///   - line: Where the store is made.
  public init(
    initialState: State,
    reducer: Feature,
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(1),
    reporter: TestFailureReporter = .xcTest,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    store = ActionStore(initialState: initialState, reducer: reducer)
    self.exhaustivity = exhaustivity
    self.timeout = timeout
    self.reporter = reporter
    self.file = file
    self.line = line
    observation = store.observeEvents { [ledger] event in ledger.record(event) }
  }

  deinit {
    if !finished && exhaustivity == .on {
      reportLeftovers(context: "The test store was released without finish()", file: file, line: line)
    }
    ledger.cancelEffects(markSkipped: true)
    observation.cancel()
  }

  /// The store's current state.
  public var state: State { store.state.current }

  /// The reducer under test, with its dependencies.
  public var reducer: Feature { store.reducer }

  /// Sends `action` and asserts the state it produced.
  ///
  /// ```swift
  /// await store.send(.increment) { $0.count = 1 }
  /// await store.send(.noop)                          // must change nothing
  /// ```
  ///
  /// Fails when actions effects sent earlier were not received (with
  /// exhaustivity on), when the state differs from the expectation, when
  /// the state changed and no closure was given, and when a closure was
  /// given but nothing changed.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - update: Mutates the state from before the action into the state
  ///     expected after it; `nil` when the action must change nothing.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  /// - Returns: The store's handle for the effects `action` started.
  @discardableResult
  public nonisolated(nonsending) func send(
    _ action: Action,
    assert update: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async -> StoreTask {
    let label = "send(\(Describe.action(action)))"
    reportEffectErrors(file: file, line: line)
    reportUnreceived(before: label, file: file, line: line)
    let index = ledger.beginSend(label, file: file, line: line)
    let task = store.send(action)
    ledger.attach(task, to: index)
    Task { [ledger] in
      await task.finish()
      ledger.effectsEnded(index)
    }
    guard let reduction = await sendReduction(label, file: file, line: line) else { return task }
    if let message = StateAssertion.check(
      label, before: reduction.before, after: reduction.after, exhaustivity: exhaustivity, update: update)
    {
      reporter.report(message, file: file, line: line)
    }
    return task
  }

  /// Waits (event-driven) for the reduction of the action just sent; it is
  /// already there unless another thread was reducing.
  private nonisolated(nonsending) func sendReduction(
    _ label: String, file: StaticString, line: UInt
  ) async -> ActionLedger<Action, State>.Reduction? {
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = ledger.wakeup.generation
      if let reduction = ledger.popSendReduction() { return reduction }
      if await !ledger.wakeup.wait(since: generation, until: deadline) {
        reporter.report(
          "\(label): the action was not reduced within \(Describe.duration(timeout)).", file: file, line: line)
        return nil
      }
    }
  }

  /// Reports the errors effects threw since the last check.
  func reportEffectErrors(file: StaticString, line: UInt) {
    for error in ledger.takeEffectErrors() {
      reporter.report("An effect failed with an error: \(error)", file: file, line: line)
    }
  }

  /// With exhaustivity on, reports (at `file`/`line`) the actions received
  /// and not asserted before `label`; drops them either way.
  func reportUnreceived(before label: String, file: StaticString, line: UInt) {
    let pending = ledger.takeReceived()
    guard exhaustivity == .on, !pending.isEmpty else { return }
    let sends = ledger.snapshot.sends
    let list = pending.map { received -> String in
      let origin = received.sendIndex.map { " (from \(sends[$0].label) at \(Describe.location(sends[$0].file, sends[$0].line)))" } ?? ""
      return "  \(Describe.action(received.action))\(origin)"
    }
    reporter.report(
      "\(label): \(pending.count) received action(s) must be asserted with receive, or skipped with skipReceivedActions(), first:\n"
        + list.joined(separator: "\n"),
      file: file, line: line)
  }
}
