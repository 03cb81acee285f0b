import VergeNeue

extension TestStore where Reducer: ActionReducer {
  /// The state type.
  public typealias State = Reducer.State
  /// The action type.
  public typealias Action = Reducer.Action

  /// Creates a test store around a new `ActionStore`, for a feature written
  /// with enum actions.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State(), reducer: Feature(clock: clock, api: .stub))
  /// ```
  ///
  /// Dependencies are the reducer's: build it with a test clock and stub
  /// clients.
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - reducer: The reducer.
  ///   - withDependencies: Overrides some of the dependency values the
  ///     store uses; the others are their test values (`DependencyKey`).
  ///   - middlewares: The store's middlewares, in order (as
  ///     `ActionStore.init(initialState:reducer:withDependencies:middlewares:commitMiddlewares:onEffectError:)`
  ///     takes them): every send and every action an effect sends goes
  ///     through them, and each step asserts the state after them.
  ///   - exhaustivity: How strictly to check; `.on` by default.
  ///   - timeout: How long to wait for an action or for effects to end.
  ///   - reporter: Where failures go; by default the framework the test
  ///     runs in (a Swift Testing issue, or `XCTFail`).
  ///   - fileID: Where the store is made (failures at release point here).
  ///   - file: Where the store is made.
  ///   - line: Where the store is made.
  ///   - column: Where the store is made.
  public convenience init(
    initialState: Reducer.State,
    reducer: Reducer,
    withDependencies: (inout DependencyValues) -> Void = { _ in },
    middlewares: [Middleware<Reducer.Action, Reducer.State>] = [],
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(1),
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      // The test store reports an effect's error as a test failure; the
      // store's default log line would say it twice.
      backend: ActionBackend(
        store: ActionStore(
          initialState: initialState, reducer: reducer, withDependencies: withDependencies,
          middlewares: middlewares, onEffectError: { _ in })),
      exhaustivity: exhaustivity, timeout: timeout, reporter: reporter,
      location: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// The store under test. Send through the test store, not through it, so
  /// that every send is asserted.
  public var store: ActionStore<Reducer> { backend.actions().store }

  /// The store's current state.
  public var state: Reducer.State { backend.actions().store.state.current }

  /// The reducer under test, with its dependencies.
  public var reducer: Reducer { backend.actions().store.reducer }

  /// The dependency values the store under test uses: those given to
  /// `withDependencies:`, and each other key's test value. Read them to
  /// reach what the test controls (`store.dependencies.clock` is the
  /// store's own `TestClock` unless one was given).
  public var dependencies: DependencyValues { backend.actions().store.dependencies }

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
  /// given but nothing changed. Every action the effects it starts send —
  /// also through further effects — is attributed to this send in failure
  /// messages.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - update: Mutates the state from before the action into the state
  ///     expected after it; `nil` when the action must change nothing.
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  /// - Returns: The store's handle for the effects `action` started.
  @discardableResult
  public nonisolated(nonsending) func send(
    _ action: Reducer.Action,
    assert update: ((inout Reducer.State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> StoreTask {
    let actions = backend.actions()
    let location = FailureLocation(fileID: fileID, filePath: file, line: line, column: column)
    // Described only for a failure message: rendering an action is costly.
    let label: @Sendable () -> String = { "send(\(Describe.action(action)))" }
    reportProblems(of: actions, at: location)
    reportUnasserted(of: actions, before: label(), at: location)
    let index = actions.ledger.beginSend(label, at: location)
    let task = actions.store.send(action)
    // The reduction is booked already unless another thread was reducing
    // (or has yet to reduce what it queued); then wait, event-driven.
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = actions.ledger.wakeup.generation
      if let reduction = actions.ledger.takeReduction(of: index) {
        assertStep(label(), reduction, update: update, at: location)
        return task
      }
      if await !actions.ledger.wakeup.wait(since: generation, until: deadline) {
        reporter.report(
          "\(label()): the action was not reduced within \(Describe.duration(timeout)).", at: location)
        return task
      }
    }
  }

  /// Drops the actions and activities received so far without asserting
  /// them.
  ///
  /// - Parameters:
  ///   - fileID: The call's file ID (errors effects threw are reported
  ///     here).
  ///   - file: The call's file.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public func skipReceivedActions(
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    skipReceived(of: backend.actions(), at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// Cancels every effect still running, and stops `finish()` from
  /// counting the effects running now.
  ///
  /// - Parameters:
  ///   - fileID: The call's file ID (errors effects threw are reported
  ///     here).
  ///   - file: The call's file.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public func skipInFlightEffects(
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    skipInFlight(of: backend.actions(), at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }
}
