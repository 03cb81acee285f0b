import VergeNeue

extension TestStore {
  /// Waits for the next action that effects sent, checks that it is
  /// `expected`, and asserts the state it produced.
  ///
  /// ```swift
  /// await store.send(.load) { $0.isLoading = true }
  /// await store.receive(.loaded(["a"])) { $0.isLoading = false; $0.photos = ["a"] }
  /// ```
  ///
  /// With exhaustivity on, the next received action must be `expected`;
  /// with it off, received actions that do not match are skipped. The wait
  /// ends as soon as the store reduces an action, fails at once when no
  /// effect is running that could send one, and fails after `timeout`.
  ///
  /// - Parameters:
  ///   - expected: The action the test expects next.
  ///   - timeout: How long to wait; the store's ``timeout`` when `nil`.
  ///   - update: Mutates the state from before the action into the
  ///     expected state after it; `nil` when it must change nothing.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  public nonisolated(nonsending) func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async where Action: Equatable {
    await receive(
      described: Describe.action(expected), timeout: timeout, matching: { $0 == expected },
      update: update, file: file, line: line)
  }

  /// Waits for the next action that effects sent, checks it with
  /// `predicate`, and asserts the state it produced.
  ///
  /// ```swift
  /// await store.receive(where: { if case .loaded = $0 { true } else { false } }) {
  ///   $0.isLoading = false
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - predicate: Whether an action is the one the test expects.
  ///   - timeout: How long to wait; the store's ``timeout`` when `nil`.
  ///   - update: Mutates the state from before the action into the
  ///     expected state after it; `nil` when it must change nothing.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  public nonisolated(nonsending) func receive(
    where predicate: (Action) -> Bool,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    await receive(
      described: "an action matching the predicate", timeout: timeout, matching: predicate,
      update: update, file: file, line: line)
  }

  /// Drops the actions received so far without asserting them.
  ///
  /// - Parameters:
  ///   - file: The call's file.
  ///   - line: The call's line.
  public func skipReceivedActions(file: StaticString = #filePath, line: UInt = #line) {
    reportEffectErrors(file: file, line: line)
    _ = ledger.takeReceived()
  }

  /// Cancels every effect still running that a `send` started, and stops
  /// `finish()` from counting effects that are running now.
  ///
  /// - Parameters:
  ///   - file: The call's file.
  ///   - line: The call's line.
  public func skipInFlightEffects(file: StaticString = #filePath, line: UInt = #line) {
    reportEffectErrors(file: file, line: line)
    ledger.cancelEffects(markSkipped: true)
  }

  private nonisolated(nonsending) func receive(
    described description: String,
    timeout: Duration?,
    matching predicate: (Action) -> Bool,
    update: ((inout State) throws -> Void)?,
    file: StaticString,
    line: UInt
  ) async {
    let label = "receive(\(description))"
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = ledger.wakeup.generation
      reportEffectErrors(file: file, line: line)
      if let received = ledger.popReceived() {
        if predicate(received.action) {
          if let message = StateAssertion.check(
            label, before: received.before, after: received.after, exhaustivity: exhaustivity, update: update)
          {
            reporter.report(message, file: file, line: line)
          }
          return
        }
        guard exhaustivity == .off else {
          reporter.report(
            "\(label): the next received action is \(Describe.action(received.action)).", file: file, line: line)
          return
        }
        continue
      }
      if store.effectsInFlight == 0 {
        reporter.report(
          "\(label): no action was received, and no effect is running that could send one.",
          file: file, line: line)
        return
      }
      startIdleWatcher()
      if await !ledger.wakeup.wait(since: generation, until: deadline) {
        reporter.report(
          "\(label): timed out after \(Describe.duration(timeout)); \(store.effectsInFlight) effect(s) still running.",
          file: file, line: line)
        return
      }
    }
  }

  /// Wakes the waiting test when the store's last effect ends.
  func startIdleWatcher() {
    guard ledger.claimIdleWatcher() else { return }
    Task { [store, ledger] in
      await store.waitUntilIdle()
      ledger.idleWatcherEnded()
    }
  }
}
