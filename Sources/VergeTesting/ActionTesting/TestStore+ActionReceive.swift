import VergeNeue

extension TestStore where Reducer: ActionReducer {
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
    _ expected: Reducer.Action,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async where Reducer.Action: Equatable {
    await receiveNext(
      from: actions, label: "receive(\(Describe.action(expected)))", timeout: timeout,
      matching: { $0 == expected }, update: update, file: file, line: line)
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
    where predicate: (Reducer.Action) -> Bool,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    await receiveNext(
      from: actions, label: "receive(an action matching the predicate)", timeout: timeout,
      matching: predicate, update: update, file: file, line: line)
  }

  /// Drops the actions received so far without asserting them.
  ///
  /// - Parameters:
  ///   - file: The call's file (errors effects threw are reported here).
  ///   - line: The call's line.
  public func skipReceivedActions(file: StaticString = #filePath, line: UInt = #line) {
    reportProblems(of: actions, file: file, line: line)
    _ = actions.ledger.takeReceived()
  }

  /// Cancels every effect still running, and stops `finish()` from
  /// counting the effects running now.
  ///
  /// - Parameters:
  ///   - file: The call's file (errors effects threw are reported here).
  ///   - line: The call's line.
  public func skipInFlightEffects(file: StaticString = #filePath, line: UInt = #line) {
    reportProblems(of: actions, file: file, line: line)
    actions.cancelRunningWork(markSkipped: true)
  }
}
