/// The logic both reducer shapes share: checking a step, reporting what
/// was not asserted before the next one, waiting for the next thing the
/// store's work produced, and skipping.
extension TestStore {
  /// Checks one step's change of state against the test's closure and
  /// reports a mismatch at `location`; with exhaustivity
  /// `.off(showSkippedAssertions: true)`, shows what `.on` would have
  /// reported.
  func assertStep<State: Equatable>(
    _ label: @autoclosure () -> String,
    _ change: StateChange<State>,
    update: ((inout State) throws -> Void)?,
    at location: FailureLocation
  ) {
    guard exhaustivity != .on else {
      if let message = StatePair.verdict(label(), &change.states.pointee, exhaustive: true, update: update) {
        reporter.report(message, at: location)
      }
      return
    }
    let skipped = skippedAssertions
    let strict =
      skipped == nil ? nil : StatePair.verdict(label(), &change.states.pointee, exhaustive: true, update: update)
    if update != nil { change.draftFromAfter() }
    if let message = StatePair.verdict(label(), &change.states.pointee, exhaustive: false, update: update) {
      reporter.report(message, at: location)
    } else if let skipped, let strict {
      skipped.report(strict, at: location)
    }
  }

  /// Where the failures that exhaustivity `.off` skips are shown; `nil`
  /// unless it is `.off(showSkippedAssertions: true)`.
  var skippedAssertions: TestFailureReporter? {
    exhaustivity.showsSkippedAssertions ? reporter.showingSkippedAssertions : nil
  }

  /// Reports the problems the books collected (errors effects threw; a
  /// method reducer's dispatched actions report theirs through their
  /// handle).
  func reportProblems<Backend: TestStoreBackend>(of backend: Backend, at location: FailureLocation) {
    let problems = backend.ledger.modify { data in
      defer { data.problems = [] }
      return data.problems
    }
    for problem in problems {
      reporter.report(problem, at: location)
    }
  }

  /// With exhaustivity on, reports (at `location`) what was produced and
  /// not asserted before the step `label`; drops it either way.
  func reportUnasserted<Backend: TestStoreBackend>(
    of backend: Backend, before label: @autoclosure () -> String, at location: FailureLocation
  ) {
    let pending = backend.ledger.takeReceived(marking: exhaustivity == .on ? .notAsserted : .skipped)
    guard let reporter = exhaustivity == .on ? reporter : skippedAssertions, !pending.isEmpty else { return }
    let origins = backend.ledger.origins
    let shape = backend.shape
    let list = pending.map { received in
      "  " + Self.describe(received.produced, in: backend) + (received.origin.map { origins[$0].fromClause } ?? "")
    }
    let activities = pending.count(where: \.produced.isActivity)
    let items = pending.count - activities
    let counts = [
      items > 0 ? "\(items) \(shape.produced) \(shape.item)(s)" : nil,
      activities > 0 ? "\(activities) sent activity(ies)" : nil,
    ].compactMap { $0 }.joined(separator: " and ")
    let calls = [items > 0 ? "receive" : nil, activities > 0 ? "receiveActivity" : nil]
      .compactMap { $0 }.joined(separator: " and ")
    reporter.report(
      "\(label()): \(counts) must be asserted with \(calls), or skipped with \(shape.skipItemsCall), first:\n"
        + list.joined(separator: "\n"),
      at: location)
  }

  /// `.tick`, `setPhotos(_:)`, `activity .posted("hi")`: one produced thing
  /// in a list.
  static func describe<Backend: TestStoreBackend>(
    _ produced: Ledger<Backend.Item, Backend.Activity, Backend.State, Backend.Extra>.Produced, in backend: Backend
  ) -> String {
    switch produced {
    case .item(let item, _): return backend.describe(item, quoted: false)
    case .activity(let activity): return "activity " + Describe.action(activity)
    }
  }

  /// Waits for the next thing of one kind (an activity, or an action or
  /// mutation) that the store's work produced and `predicate` accepts, and
  /// asserts the state an action or mutation produced with `update`: every
  /// `receive` and `receiveActivity` of both shapes.
  ///
  /// The two kinds are matched each in its own order: an activity an effect
  /// sends is delivered at once, while an action it sent before may still
  /// wait for another thread to reduce it. With exhaustivity on the next
  /// one of the kind must match; with it off, those that do not are
  /// skipped. The wait ends as soon as the store produces
  /// something, fails at once when nothing runs that could produce it, and
  /// fails after `timeout`.
  nonisolated(nonsending) func receive<Backend: TestStoreBackend>(
    from backend: Backend,
    _ label: String,
    activity: Bool,
    timeout: Duration?,
    matching predicate: (Ledger<Backend.Item, Backend.Activity, Backend.State, Backend.Extra>.Produced) -> Bool,
    update: ((inout Backend.State) throws -> Void)?,
    at location: FailureLocation
  ) async {
    let ledger = backend.ledger
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = ledger.wakeup.generation
      // Read before looking at what was produced: work records what it
      // produced before it counts as ended, so when nothing ran before the
      // look, the look saw everything.
      let producing = backend.canProduce
      reportProblems(of: backend, at: location)
      switch ledger.popReceived(activity: activity) {
      case .nothing:
        guard producing else {
          reporter.report("\(label): \(backend.shape.nothingRunning(activity: activity))", at: location)
          return
        }
      case .settling:
        // Another thread is still reducing what it queued; it signals
        // when done.
        break
      case .received(let received):
        if predicate(received.produced) {
          ledger.mark(received, .asserted)
          if case .item(_, let change) = received.produced { assertStep(label, change, update: update, at: location) }
          return
        }
        let next: String
        switch received.produced {
        case .item(let item, _):
          next = "\(backend.shape.produced) \(backend.shape.item) is \(backend.describe(item, quoted: true))"
        case .activity(let activity): next = "received activity is \(Describe.action(activity))"
        }
        guard exhaustivity != .on else {
          reporter.report("\(label): the next \(next).", at: location)
          return
        }
        skippedAssertions?.report("\(label): the next \(next).", at: location)
        ledger.mark(received, .skipped)
        continue
      }
      backend.watchForIdle()
      if await !ledger.wakeup.wait(since: generation, until: deadline) {
        let what = activity ? "activity" : backend.shape.item
        reporter.report(backend.timeoutMessage(label: label, timeout: timeout, waitingFor: what), at: location)
        return
      }
    }
  }

  /// Drops what the store's work produced so far without asserting it.
  func skipReceived<Backend: TestStoreBackend>(of backend: Backend, at location: FailureLocation) {
    reportProblems(of: backend, at: location)
    _ = backend.ledger.takeReceived(marking: .skipped)
  }

  /// Cancels the work still running, and stops `finish()` from counting it.
  func skipInFlight<Backend: TestStoreBackend>(of backend: Backend, at location: FailureLocation) {
    reportProblems(of: backend, at: location)
    skipAndCancelRunningWork(of: backend)
  }

  /// Marks the work still running as skipped, then cancels it.
  func skipAndCancelRunningWork<Backend: TestStoreBackend>(of backend: Backend) {
    backend.ledger.skipPendingWork()
    backend.cancelRunningWork()
  }
}
