import VergeNeue

/// Tests a feature written as a method reducer (`ReducerType`): commit
/// mutations or dispatch actions, then assert each mutation committed, by
/// name and with its exact state change, in order.
///
/// ```swift
/// func testRefresh() async throws {
///   let store = ReducerTestStore(
///     initialState: PhotosState(),
///     reducer: PhotosReducer(api: .stub(["a"])))    // swap dependencies here
///
///   store.commit({ $0.select(0) }) { $0.selection = 0 }
///
///   let refresh = store.dispatch { $0.refresh() }
///   await store.receive("setLoading(_:)") { $0.isLoading = true }
///   await store.receive("setPhotos(_:)") {
///     $0.isLoading = false
///     $0.photos = ["a"]
///   }
///   let count = try await refresh.value
///   XCTAssertEqual(count, 1)
///   await store.finish()
/// }
/// ```
///
/// Mutations are named after the reducer method that made them
/// (`setPhotos(_:)`) unless the mutation was given a name. Assertion
/// closures work as in `TestStore`: they mutate the state from before the
/// mutation into the expected state after it. With ``exhaustivity`` on,
/// every mutation a dispatched action commits must be received in order,
/// and `finish()` fails for actions still running, pointing at their
/// `dispatch`.
///
/// Use a test store from one task at a time (the test's own).
public final class ReducerTestStore<Reducer: ReducerType> {
  /// The state type.
  public typealias State = Reducer.TargetState

  /// The store under test. Commit and dispatch through the test store so
  /// that every change is asserted.
  public let store: ReducerStore<Reducer>
  /// How strictly the test is checked; `.on` unless set.
  public var exhaustivity: Exhaustivity
  /// How long `receive` and `finish` wait before they fail.
  public var timeout: Duration
  /// Where failures go.
  public let reporter: TestFailureReporter

  let ledger = ReducerLedger<State>()
  private let observation: EventObservation
  private let file: StaticString
  private let line: UInt
  var finished = false

  /// Creates a test store around a new `ReducerStore`.
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - reducer: The reducer, with test dependencies (a test clock, stub
  ///     clients).
  ///   - exhaustivity: How strictly to check; `.on` by default.
  ///   - timeout: How long to wait for a mutation or for actions to end.
  ///   - reporter: Where failures go; `XCTFail` by default.
  ///   - file: Where the store is made.
  ///   - line: Where the store is made.
  public init(
    initialState: State,
    reducer: Reducer,
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(1),
    reporter: TestFailureReporter = .xcTest,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    store = ReducerStore(initialState: initialState, reducer: reducer)
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
    ledger.cancelDispatches(markSkipped: true)
    observation.cancel()
  }

  /// The store's current state.
  public var state: State { store.state.current }

  /// The reducer under test, with its dependencies.
  public var reducer: Reducer { store.reducer }

  /// Commits a mutation of the reducer and asserts the state it produced.
  ///
  /// ```swift
  /// store.commit({ $0.increment() }) { $0.count = 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - mutation: Picks the mutation from the reducer.
  ///   - update: Mutates the state from before into the expected state
  ///     after; `nil` when the mutation must change nothing.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  public func commit(
    _ mutation: (Reducer) -> ReducerMutation<State>,
    assert update: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let mutation = mutation(store.reducer)
    let label = "commit(\(mutation.name))"
    reportUnasserted(before: label, file: file, line: line)
    ledger.expectDirect(mutation)
    store.commit { _ in mutation }
    guard let committed = ledger.takeDirect() else {
      reporter.report("\(label): the mutation was not committed.", file: file, line: line)
      return
    }
    if let message = StateAssertion.check(
      label, before: committed.before, after: committed.after, exhaustivity: exhaustivity, update: update)
    {
      reporter.report(message, file: file, line: line)
    }
  }

  /// Starts an action of the reducer in the background; assert the
  /// mutations it commits with `receive`, and await its result with
  /// `DispatchedAction.value`.
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
    let action = action(store.reducer)
    let label = "dispatch(\(action.name))"
    reportUnasserted(before: label, file: file, line: line)
    let index = ledger.beginDispatch(label, file: file, line: line)
    let task = Task { [store, ledger] in
      defer { ledger.dispatchEnded(index) }
      return try await store.dispatch { _ in action }
    }
    ledger.attach(cancel: { task.cancel() }, to: index)
    return DispatchedAction(task: task)
  }

  /// With exhaustivity on, reports mutations committed and not asserted
  /// before `label`; drops them either way.
  func reportUnasserted(before label: String, file: StaticString, line: UInt) {
    let pending = ledger.takeCommitted()
    guard exhaustivity == .on, !pending.isEmpty else { return }
    let dispatches = ledger.snapshot.dispatches
    let list = pending.map { committed -> String in
      let origin = committed.dispatchIndex.map {
        " (from \(dispatches[$0].label) at \(Describe.location(dispatches[$0].file, dispatches[$0].line)))"
      } ?? ""
      return "  \(committed.mutation.name)\(origin)"
    }
    reporter.report(
      "\(label): \(pending.count) committed mutation(s) must be asserted with receive, or skipped with skipReceivedMutations(), first:\n"
        + list.joined(separator: "\n"),
      file: file, line: line)
  }
}
