/// The logic both reducer shapes share: checking a step, reporting what
/// was not asserted before the next one, and waiting for the next item.
extension TestStore {
  /// Checks one step's change of state against the test's closure and
  /// reports a mismatch at `file`/`line`.
  func assertStep<State: Equatable>(
    _ label: String,
    before: State,
    after: State,
    update: ((inout State) throws -> Void)?,
    file: StaticString,
    line: UInt
  ) {
    if let message = StateAssertion.check(
      label, before: before, after: after, exhaustivity: exhaustivity, update: update)
    {
      reporter.report(message, file: file, line: line)
    }
  }

  /// Reports the problems the backend collected (errors effects threw).
  func reportProblems<Backend: TestStoreBackend>(of backend: Backend, file: StaticString, line: UInt) {
    for problem in backend.takeProblems() {
      reporter.report(problem, file: file, line: line)
    }
  }

  /// With exhaustivity on, reports (at `file`/`line`) the items produced
  /// and not asserted before the step `label`; drops them either way.
  func reportUnasserted<Backend: TestStoreBackend>(
    of backend: Backend, before label: String, file: StaticString, line: UInt
  ) {
    let pending = backend.ledger.takeReceived()
    guard exhaustivity == .on, !pending.isEmpty else { return }
    let origins = backend.ledger.origins
    let vocabulary = backend.vocabulary
    let list = pending.map { received in
      "  " + vocabulary.describe(received.item) + (received.origin.map { origins[$0].fromClause } ?? "")
    }
    reporter.report(
      "\(label): \(pending.count) \(vocabulary.unassertedItems) must be asserted with receive, or skipped with \(vocabulary.skipItemsCall), first:\n"
        + list.joined(separator: "\n"),
      file: file, line: line)
  }

  /// Waits for the next item that matches `predicate` and asserts the state
  /// it produced.
  ///
  /// With exhaustivity on the next item must match; with it off, items
  /// that do not are skipped. The wait ends as soon as the store produces
  /// an item, fails at once when nothing runs that could produce one, and
  /// fails after `timeout`.
  nonisolated(nonsending) func receiveNext<Backend: TestStoreBackend>(
    from backend: Backend,
    label: String,
    timeout: Duration?,
    matching predicate: (Backend.Item) -> Bool,
    update: ((inout Backend.State) throws -> Void)?,
    file: StaticString,
    line: UInt
  ) async {
    let ledger = backend.ledger
    let vocabulary = backend.vocabulary
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = ledger.wakeup.generation
      // Read before looking at the items: work records what it produced
      // before it counts as ended, so when nothing ran before the look,
      // the look saw everything.
      let producing = backend.canProduce
      reportProblems(of: backend, file: file, line: line)
      if let received = ledger.popReceived() {
        if predicate(received.item) {
          assertStep(label, before: received.before, after: received.after, update: update, file: file, line: line)
          return
        }
        guard exhaustivity == .off else {
          reporter.report(
            "\(label): the next \(vocabulary.nextItem) is \(vocabulary.describeNext(received.item)).",
            file: file, line: line)
          return
        }
        continue
      }
      guard producing else {
        reporter.report("\(label): \(vocabulary.nothingRunning)", file: file, line: line)
        return
      }
      backend.watchForIdle()
      if await !ledger.wakeup.wait(since: generation, until: deadline) {
        reporter.report(backend.timeoutMessage(label: label, timeout: timeout), file: file, line: line)
        return
      }
    }
  }
}
