extension TestStore {
  /// Waits for the work still running, then fails for what the test left
  /// unasserted: actions or mutations produced and not received, and work
  /// still running after `timeout`, each reported at the `send` or
  /// `dispatch` that started it.
  ///
  /// ```swift
  /// await store.send(.start)
  /// await store.receive(.tick) { $0.ticks = 1 }
  /// await store.finish()
  /// ```
  ///
  /// With exhaustivity off nothing is reported. Work still running is
  /// cancelled at the end either way (effects, dispatched actions).
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for the work to end; the store's
  ///     ``timeout`` when `nil`.
  ///   - file: The call's file.
  ///   - line: The call's line.
  public nonisolated(nonsending) func finish(
    timeout: Duration? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    await finish(backend, timeout: timeout, file: file, line: line)
  }

  private nonisolated(nonsending) func finish<Backend: TestStoreBackend>(
    _ backend: Backend, timeout: Duration?, file: StaticString, line: UInt
  ) async {
    let ledger = backend.ledger
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while true {
      let generation = ledger.wakeup.generation
      if backend.isSettled { break }
      backend.watchForIdle()
      if await !ledger.wakeup.wait(since: generation, until: deadline) { break }
    }
    finished = true
    reportProblems(of: backend, file: file, line: line)
    if exhaustivity == .on {
      reportLeftovers(of: backend, context: "finish()", file: file, line: line)
    }
    backend.cancelRunningWork(markSkipped: true)
  }

  /// Reports items produced and not asserted, and work still running.
  func reportLeftovers(context: String, file: StaticString, line: UInt) {
    reportLeftovers(of: backend, context: context, file: file, line: line)
  }

  private func reportLeftovers<Backend: TestStoreBackend>(
    of backend: Backend, context: String, file: StaticString, line: UInt
  ) {
    let received = backend.ledger.takeReceived()
    let origins = backend.ledger.origins
    let vocabulary = backend.vocabulary
    var byOrigin: [Int?: [String]] = [:]
    for item in received {
      byOrigin[item.origin, default: []].append("  " + vocabulary.describe(item.item))
    }
    for origin in byOrigin.keys.sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
      let list = byOrigin[origin, default: []]
      let header = "\(context): \(list.count) \(vocabulary.leftoverItems)"
      if let origin {
        let source = origins[origin]
        reporter.report(
          "\(header), \(vocabulary.leftoverOrigin) \(source.label):\n" + list.joined(separator: "\n"),
          file: source.file, line: source.line)
      } else {
        reporter.report("\(header):\n" + list.joined(separator: "\n"), file: file, line: line)
      }
    }
    for origin in origins where origin.isRunning && backend.canProduce {
      reporter.report(vocabulary.stillRunning(context, origin.label), file: origin.file, line: origin.line)
    }
    backend.reportUnattributedWork(context: context, reporter: reporter, file: file, line: line)
  }
}
