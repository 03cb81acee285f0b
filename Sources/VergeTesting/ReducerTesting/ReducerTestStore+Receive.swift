import VergeNeue

extension ReducerTestStore {
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
    assert update: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    let label = "receive(\(name.debugDescription))"
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = ledger.wakeup.generation
      if let committed = ledger.popCommitted() {
        if committed.mutation.name == name {
          if let message = StateAssertion.check(
            label, before: committed.before, after: committed.after, exhaustivity: exhaustivity, update: update)
          {
            reporter.report(message, file: file, line: line)
          }
          return
        }
        guard exhaustivity == .off else {
          reporter.report(
            "\(label): the next committed mutation is \(committed.mutation.name.debugDescription).",
            file: file, line: line)
          return
        }
        continue
      }
      if !ledger.anyDispatchRunning {
        reporter.report(
          "\(label): no mutation was committed, and no dispatched action is running that could commit one.",
          file: file, line: line)
        return
      }
      if await !ledger.wakeup.wait(since: generation, until: deadline) {
        reporter.report(
          "\(label): timed out after \(Describe.duration(timeout)) waiting for the mutation.",
          file: file, line: line)
        return
      }
    }
  }

  /// Drops the mutations committed so far without asserting them.
  public func skipReceivedMutations() {
    _ = ledger.takeCommitted()
  }

  /// Cancels every dispatched action still running, and stops `finish()`
  /// from counting them.
  public func skipInFlightActions() {
    ledger.cancelDispatches(markSkipped: true)
  }

  /// Waits for the dispatched actions still running, then fails for what
  /// the test left unasserted: mutations not received, and actions still
  /// running after `timeout`, each reported at its `dispatch`.
  ///
  /// With exhaustivity off nothing is reported. Actions still running are
  /// cancelled at the end either way.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for actions to end; the store's
  ///     ``timeout`` when `nil`.
  ///   - file: The call's file.
  ///   - line: The call's line.
  public nonisolated(nonsending) func finish(
    timeout: Duration? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while true {
      let generation = ledger.wakeup.generation
      if ledger.dispatchesSettled { break }
      if await !ledger.wakeup.wait(since: generation, until: deadline) { break }
    }
    finished = true
    if exhaustivity == .on {
      reportLeftovers(context: "finish()", file: file, line: line)
    }
    ledger.cancelDispatches(markSkipped: true)
  }

  /// Reports mutations not asserted and actions still running.
  func reportLeftovers(context: String, file: StaticString, line: UInt) {
    let committed = ledger.takeCommitted()
    let data = ledger.snapshot
    var byOrigin: [Int?: [String]] = [:]
    for item in committed {
      byOrigin[item.dispatchIndex, default: []].append("  " + item.mutation.name)
    }
    for origin in byOrigin.keys.sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
      let list = byOrigin[origin, default: []]
      let header = "\(context): \(list.count) mutation(s) committed but not asserted"
      if let origin {
        let dispatch = data.dispatches[origin]
        reporter.report(
          "\(header), committed by \(dispatch.label):\n" + list.joined(separator: "\n"),
          file: dispatch.file, line: dispatch.line)
      } else {
        reporter.report("\(header):\n" + list.joined(separator: "\n"), file: file, line: line)
      }
    }
    for dispatch in data.dispatches where !dispatch.done && !dispatch.skipped {
      reporter.report(
        "\(context): \(dispatch.label) is still running. Receive its mutations, or call skipInFlightActions().",
        file: dispatch.file, line: dispatch.line)
    }
  }
}
