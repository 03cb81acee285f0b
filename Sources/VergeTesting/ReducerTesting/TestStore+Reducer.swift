import VergeNeue

extension TestStore where Reducer: ReducerType {
  /// The state type.
  public typealias TargetState = Reducer.TargetState

  /// Creates a test store around a new `ReducerStore`, for a feature written
  /// as a method reducer.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Album(), reducer: AlbumReducer(api: .stub(["a"])))
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - reducer: The reducer.
  ///   - withDependencies: Overrides some of the dependency values the
  ///     store uses; the others are their test values (`DependencyKey`).
  ///   - exhaustivity: How strictly to check; `.on` by default.
  ///   - timeout: How long to wait for a mutation or for actions to end.
  ///   - reporter: Where failures go; by default the framework the test
  ///     runs in (a Swift Testing issue, or `XCTFail`).
  ///   - fileID: Where the store is made (failures at release point here).
  ///   - file: Where the store is made.
  ///   - line: Where the store is made.
  ///   - column: Where the store is made.
  public convenience init(
    initialState: Reducer.TargetState,
    reducer: Reducer,
    withDependencies: (inout DependencyValues) -> Void = { _ in },
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(1),
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      backend: ReducerBackend(store: ReducerStore(initialState: initialState, reducer: reducer, withDependencies: withDependencies)),
      exhaustivity: exhaustivity, timeout: timeout, reporter: reporter,
      location: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// The store under test. Commit and dispatch through the test store so
  /// that every change is asserted.
  public var store: ReducerStore<Reducer> { backend.methods().store }

  /// The store's current state.
  public var state: Reducer.TargetState { backend.methods().store.state.current }

  /// The reducer under test, with its dependencies.
  public var reducer: Reducer { backend.methods().store.reducer }

  /// The dependency values the store under test uses: those given to
  /// `withDependencies:`, and each other key's test value. Read them to
  /// reach what the test controls (`store.dependencies.clock` is the
  /// store's own `TestClock` unless one was given).
  public var dependencies: DependencyValues { backend.methods().store.dependencies }

  /// Commits a mutation of the reducer and asserts the state it produced.
  ///
  /// ```swift
  /// store.commit({ $0.increment() }) { $0.count = 1 }
  /// ```
  ///
  /// Fails when mutations dispatched actions committed earlier were not
  /// received (with exhaustivity on), and as `send` does for the state.
  ///
  /// - Parameters:
  ///   - mutation: Picks the mutation from the reducer.
  ///   - update: Mutates the state from before into the expected state
  ///     after; `nil` when the mutation must change nothing.
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public func commit(
    _ mutation: (Reducer) -> ReducerMutation<Reducer.TargetState>,
    assert update: ((inout Reducer.TargetState) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let methods = backend.methods()
    let location = FailureLocation(fileID: fileID, filePath: file, line: line, column: column)
    let mutation = mutation(methods.store.reducer)
    let label = "commit(\(mutation.name))"
    reportUnasserted(of: methods, before: label, at: location)
    guard let committed = methods.commitDirectly(mutation) else {
      reporter.report("\(label): the mutation was not committed.", at: location)
      return
    }
    assertStep(label, committed, update: update, at: location)
  }

  /// Starts an action of the reducer in the background; assert the
  /// mutations it commits with `receive(_:timeout:assert:file:line:)`, and
  /// await its result with `DispatchedAction.value`.
  ///
  /// ```swift
  /// let refresh = store.dispatch { $0.refresh() }
  /// await store.receive("setPhotos(_:)") { $0.photos = ["a"] }
  /// let count = try await refresh.value
  /// ```
  ///
  /// Every mutation the action commits — also through actions it
  /// dispatches — is attributed to this dispatch in failure messages.
  ///
  /// - Parameters:
  ///   - action: Picks the action from the reducer.
  ///   - fileID: Where it is dispatched (failures about it point here).
  ///   - file: Where it is dispatched.
  ///   - line: Where it is dispatched.
  ///   - column: Where it is dispatched.
  /// - Returns: A handle for the action's result.
  @discardableResult
  public func dispatch<Result: Sendable>(
    _ action: (Reducer) -> ReducerAction<Reducer, Result>,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> DispatchedAction<Result> {
    let methods = backend.methods()
    let location = FailureLocation(fileID: fileID, filePath: file, line: line, column: column)
    let action = action(methods.store.reducer)
    let label = "dispatch(\(action.name))"
    reportUnasserted(of: methods, before: label, at: location)
    return DispatchedAction(task: methods.dispatch(action, label: label, at: location))
  }

  /// Drops the mutations and activities received so far without
  /// asserting them.
  ///
  /// - Parameters:
  ///   - fileID: The call's file ID.
  ///   - file: The call's file.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public func skipReceivedMutations(
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    skipReceived(of: backend.methods(), at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// Cancels every dispatched action still running, and stops `finish()`
  /// from counting them.
  ///
  /// - Parameters:
  ///   - fileID: The call's file ID.
  ///   - file: The call's file.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public func skipInFlightActions(
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    skipInFlight(of: backend.methods(), at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }
}
