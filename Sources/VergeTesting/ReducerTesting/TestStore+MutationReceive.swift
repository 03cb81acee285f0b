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
  ///   - file: The assertion's file.
  ///   - line: The assertion's line.
  public nonisolated(nonsending) func receive(
    _ name: String,
    timeout: Duration? = nil,
    assert update: ((inout Reducer.TargetState) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    await receiveNext(
      from: methods, label: "receive(\(name.debugDescription))", timeout: timeout,
      matching: { $0.name == name }, update: update, file: file, line: line)
  }

  /// Drops the mutations committed so far without asserting them.
  public func skipReceivedMutations() {
    _ = methods.ledger.takeReceived()
  }

  /// Cancels every dispatched action still running, and stops `finish()`
  /// from counting them.
  public func skipInFlightActions() {
    methods.cancelRunningWork(markSkipped: true)
  }
}
