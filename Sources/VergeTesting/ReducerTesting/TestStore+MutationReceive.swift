import VergeNeue

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
    await receiveItem(
      from: methods, label: "receive(\(name.debugDescription))", timeout: timeout, waitingFor: "mutation",
      matching: { $0.name == name }, update: update, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
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
    await receiveActivity(from: methods, expected, timeout: timeout, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
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
    skipReceived(of: methods, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
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
    skipInFlight(of: methods, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }
}
