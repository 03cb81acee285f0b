import VergeNeue

// What the store's work produced, received in order: both shapes' `receive`
// and `receiveActivity` go through `TestStore.receive(from:_:activity:timeout:matching:update:at:)`
// with a different predicate.

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
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public nonisolated(nonsending) func receive(
    _ expected: Reducer.Action,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Reducer.Action: Equatable {
    await receive(
      from: backend.actions(), "receive(\(Describe.action(expected)))", activity: false, timeout: timeout,
      matching: { $0.item == expected }, update: update, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// Waits for the next action that effects sent, checks that it is of the
  /// case `actionCase` — whatever it carries, so neither the action nor its
  /// payload need be `Equatable` — and asserts the state it produced.
  ///
  /// The case is the `ActionCase` a feature already declares to compose a
  /// child (`embed`, `forEach`, `ifLet`), or one written for the test:
  ///
  /// ```swift
  /// await store.send(.load) { $0.isLoading = true }
  /// await store.receive(Gallery.Action.loadedCase) {
  ///   $0.isLoading = false
  ///   $0.photos = ["a", "b"]
  /// }
  /// ```
  ///
  /// Otherwise it behaves as `receive(_:timeout:assert:)`.
  ///
  /// - Parameters:
  ///   - actionCase: The case the test expects next.
  ///   - timeout: How long to wait; the store's ``timeout`` when `nil`.
  ///   - update: Mutates the state from before the action into the
  ///     expected state after it; `nil` when it must change nothing.
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public nonisolated(nonsending) func receive<Child>(
    _ actionCase: ActionCase<Reducer.Action, Child>,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      from: backend.actions(), "receive(an action of the case carrying \(Child.self))", activity: false, timeout: timeout,
      matching: { $0.item.flatMap(actionCase.extract) != nil }, update: update,
      at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
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
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public nonisolated(nonsending) func receive(
    where predicate: (Reducer.Action) -> Bool,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      from: backend.actions(), "receive(an action matching the predicate)", activity: false, timeout: timeout,
      matching: { $0.item.map(predicate) ?? false }, update: update, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// Waits for the next activity effects sent and checks that it is
  /// `expected`.
  ///
  /// ```swift
  /// await store.send(.post("hi")) { $0.isPosting = true }
  /// await store.receive(.postFinished) { $0.isPosting = false }
  /// await store.receiveActivity(.posted("hi"))
  /// ```
  ///
  /// Activities are received in the order effects sent them, apart from
  /// actions (an effect's activity is delivered at once, while an action it
  /// sent before may wait its turn to be reduced): with exhaustivity on,
  /// the next activity must be `expected`; with it off, activities that do
  /// not match are skipped. An activity nobody receives fails at the next
  /// `send` and at `finish()`, pointing at the `send` whose effects sent
  /// it.
  ///
  /// - Parameters:
  ///   - expected: The activity the test expects next.
  ///   - timeout: How long to wait; the store's ``timeout`` when `nil`.
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public nonisolated(nonsending) func receiveActivity(
    _ expected: Reducer.Activity,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Reducer.Activity: Equatable {
    await receive(
      from: backend.actions(), "receiveActivity(\(Describe.action(expected)))", activity: true, timeout: timeout,
      matching: { $0.activity == expected }, update: nil,
      at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }
}

extension TestStore where Reducer: ReducerType {
  /// Waits for the next mutation a dispatched action committed, checks its
  /// name, and asserts the state it produced.
  ///
  /// ```swift
  /// await store.receive("setPhotos(_:)") { $0.photos = ["a"] }
  /// ```
  ///
  /// With exhaustivity on, the next mutation must be the named one; with it
  /// off, other mutations are skipped. The wait ends as soon as a mutation
  /// is committed, fails at once when no dispatched action is running, and
  /// fails after `timeout`.
  ///
  /// - Parameters:
  ///   - name: The mutation's name (`setPhotos(_:)`, or the name it was
  ///     given).
  ///   - timeout: How long to wait; the store's ``timeout`` when `nil`.
  ///   - update: Mutates the state from before the mutation into the
  ///     expected state after it; `nil` when it must change nothing.
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public nonisolated(nonsending) func receive(
    _ name: String,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.TargetState) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      from: backend.methods(), "receive(\(name.debugDescription))", activity: false, timeout: timeout,
      matching: { $0.item?.name == name }, update: update, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  /// Waits for the next activity a dispatched action sent (with
  /// `context.send(_:)`) and checks that it is `expected`.
  ///
  /// ```swift
  /// let post = store.dispatch { $0.post("hi") }
  /// await store.receive("append(_:)") { $0.comments = ["hi"] }
  /// await store.receiveActivity(.commentPosted)
  /// ```
  ///
  /// Activities are received in the order they were sent, apart from
  /// mutations: with exhaustivity on, the next activity must be
  /// `expected`; with it off, activities that do not match are skipped. An
  /// activity nobody receives fails at the next step and at `finish()`,
  /// pointing at its `dispatch`.
  ///
  /// - Parameters:
  ///   - expected: The activity the test expects next.
  ///   - timeout: How long to wait; the store's ``timeout`` when `nil`.
  ///   - fileID: The assertion's file ID.
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  ///   - column: The assertion's column.
  public nonisolated(nonsending) func receiveActivity(
    _ expected: Reducer.TargetActivity,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Reducer.TargetActivity: Equatable {
    await receive(
      from: backend.methods(), "receiveActivity(\(Describe.action(expected)))", activity: true, timeout: timeout,
      matching: { $0.activity == expected }, update: nil,
      at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }
}
