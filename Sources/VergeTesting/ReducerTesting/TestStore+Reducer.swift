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
  ///   - reducer: The reducer, with test dependencies (a test clock, stub
  ///     clients).
  ///   - exhaustivity: How strictly to check; `.on` by default.
  ///   - timeout: How long to wait for a mutation or for actions to end.
  ///   - reporter: Where failures go; `XCTFail` by default.
  ///   - file: Where the store is made (failures at release point here).
  ///   - line: Where the store is made.
  public convenience init(
    initialState: Reducer.TargetState,
    reducer: Reducer,
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(1),
    reporter: TestFailureReporter = .xcTest,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    self.init(
      backend: ReducerBackend(store: ReducerStore(initialState: initialState, reducer: reducer)),
      exhaustivity: exhaustivity, timeout: timeout, reporter: reporter, file: file, line: line)
  }

  /// The method-reducer half.
  var methods: ReducerBackend<Reducer> {
    // Safe by construction: the initializer above is the only one that
    // makes a test store whose `Reducer` is a `ReducerType`, and it stores
    // exactly this backend. (A type that were both a `ReducerType` and an
    // `ActionReducer` could not be passed to either initializer: the call
    // would be ambiguous.)
    guard let methods = backend as? ReducerBackend<Reducer> else {
      preconditionFailure("A TestStore of a ReducerType holds a ReducerBackend.")
    }
    return methods
  }

  /// The store under test. Commit and dispatch through the test store so
  /// that every change is asserted.
  public var store: ReducerStore<Reducer> { methods.store }

  /// The store's current state.
  public var state: Reducer.TargetState { methods.store.state.current }

  /// The reducer under test, with its dependencies.
  public var reducer: Reducer { methods.store.reducer }

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
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  public func commit(
    _ mutation: (Reducer) -> ReducerMutation<Reducer.TargetState>,
    assert update: ((inout Reducer.TargetState) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let methods = methods
    let mutation = mutation(methods.store.reducer)
    let label = "commit(\(mutation.name))"
    reportUnasserted(of: methods, before: label, file: file, line: line)
    guard let committed = methods.commitDirectly(mutation) else {
      reporter.report("\(label): the mutation was not committed.", file: file, line: line)
      return
    }
    assertStep(label, before: committed.before, after: committed.after, update: update, file: file, line: line)
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
  ///   - file: Where it is dispatched (failures about it point here).
  ///   - line: Where it is dispatched.
  /// - Returns: A handle for the action's result.
  @discardableResult
  public func dispatch<Result: Sendable>(
    _ action: (Reducer) -> ReducerAction<Reducer, Result>,
    file: StaticString = #filePath,
    line: UInt = #line
  ) -> DispatchedAction<Result> {
    let methods = methods
    let action = action(methods.store.reducer)
    let label = "dispatch(\(action.name))"
    reportUnasserted(of: methods, before: label, file: file, line: line)
    return DispatchedAction(task: methods.dispatch(action, label: label, file: file, line: line))
  }
}
