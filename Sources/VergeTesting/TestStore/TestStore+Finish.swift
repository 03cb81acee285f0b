extension TestStore {
  /// Waits for the work still running, then fails for what the test left
  /// unasserted: actions, mutations or activities produced and not
  /// received, and work still running after `timeout`. Each failure is
  /// reported at the `send` or `dispatch` that started the work, with a
  /// short timeline of what that work did.
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
  ///   - fileID: The call's file ID.
  ///   - file: The call's file.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public nonisolated(nonsending) func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await finish(
      books, timeout: timeout, at: FailureLocation(fileID: fileID, filePath: file, line: line, column: column))
  }

  private nonisolated(nonsending) func finish<Backend: TestStoreBackend>(
    _ backend: Backend, timeout: Duration?, at location: FailureLocation
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
    reportProblems(of: backend, at: location)
    if let reporter = exhaustivity == .on ? reporter : skippedAssertions {
      reportLeftovers(of: backend, context: "finish()", to: reporter, at: location)
    }
    skipAndCancelRunningWork(of: backend)
  }

  /// Reports what was produced and not asserted, and work still running.
  func reportLeftovers(context: String, to reporter: TestFailureReporter, at location: FailureLocation) {
    reportLeftovers(of: books, context: context, to: reporter, at: location)
  }

  private func reportLeftovers<Backend: TestStoreBackend>(
    of backend: Backend, context: String, to reporter: TestFailureReporter, at location: FailureLocation
  ) {
    let received = backend.ledger.takeReceived()
    let origins = backend.ledger.origins
    let shape = backend.shape
    var byOrigin: [Int?: [Ledger<Backend.Item, Backend.Activity, Backend.State, Backend.Extra>.Produced]] = [:]
    for item in received {
      byOrigin[item.origin, default: []].append(item.produced)
    }
    var reported = Set<Int>()
    for origin in byOrigin.keys.sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
      let list = byOrigin[origin, default: []]
      let activities = list.count(where: \.isActivity)
      let items = list.count - activities
      let counts = [
        items > 0 ? "\(items) \(shape.item)(s) \(shape.produced) but not asserted" : nil,
        activities > 0 ? "\(activities) activity(ies) sent but not asserted" : nil,
      ].compactMap { $0 }.joined(separator: ", and ")
      let lines = list.map { "  " + Self.describe($0, in: backend) }.joined(separator: "\n")
      if let origin {
        let source = origins[origin]
        let joint = shape.leftoverJoint(items: items > 0, activities: activities > 0)
        var message = "\(context): \(counts), \(joint) \(source.label):\n" + lines
        if source.isRunning && backend.canProduce {
          message += "\n" + shape.stillRunning(context, source.label)
        }
        reported.insert(origin)
        reporter.report(message + "\n" + timeline(of: source), at: source.location)
      } else {
        reporter.report("\(context): \(counts):\n" + lines, at: location)
      }
    }
    for (index, origin) in origins.enumerated()
    where origin.isRunning && backend.canProduce && !reported.contains(index) {
      reporter.report(
        shape.stillRunning(context, origin.label) + "\n" + timeline(of: origin), at: origin.location)
    }
    backend.reportUnattributedWork(context: context, reporter: reporter, at: location)
  }

  /// `Timeline of send(.load) at GalleryTests.swift:12:` and its entries.
  private func timeline<Item, Activity, State, Extra>(
    of origin: Ledger<Item, Activity, State, Extra>.Origin
  ) -> String {
    origin.timeline.render(title: "Timeline of \(origin.label) at \(origin.location.short)")
  }
}
