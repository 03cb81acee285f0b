import VergeNeue

extension TestStore {
  /// Waits for the effects still running, then fails for what the test left
  /// unasserted: actions received and not asserted, and effects still
  /// running after `timeout`, each reported at the `send` that started it.
  ///
  /// ```swift
  /// await store.send(.start)
  /// await store.receive(.tick) { $0.ticks = 1 }
  /// await store.finish()
  /// ```
  ///
  /// With exhaustivity off nothing is reported. Effects still running are
  /// cancelled at the end either way.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for effects to end; the store's
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
      if store.effectsInFlight == 0 && ledger.sendsSettled { break }
      startIdleWatcher()
      if await !ledger.wakeup.wait(since: generation, until: deadline) { break }
    }
    finished = true
    reportEffectErrors(file: file, line: line)
    if exhaustivity == .on {
      reportLeftovers(context: "finish()", file: file, line: line)
    }
    ledger.cancelEffects(markSkipped: true)
  }

  /// Reports received actions not asserted and effects still running.
  func reportLeftovers(context: String, file: StaticString, line: UInt) {
    let received = ledger.takeReceived()
    let data = ledger.snapshot
    var byOrigin: [Int?: [String]] = [:]
    for item in received {
      byOrigin[item.sendIndex, default: []].append("  " + Describe.action(item.action))
    }
    for origin in byOrigin.keys.sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
      let list = byOrigin[origin, default: []]
      let header = "\(context): \(list.count) action(s) received but not asserted"
      if let origin {
        let send = data.sends[origin]
        reporter.report("\(header), sent by effects of \(send.label):\n" + list.joined(separator: "\n"), file: send.file, line: send.line)
      } else {
        reporter.report("\(header):\n" + list.joined(separator: "\n"), file: file, line: line)
      }
    }
    let inFlight = store.effectsInFlight
    // A send's watcher may not have marked it done yet when nothing runs.
    let running = inFlight == 0 ? [] : data.sends.filter { !$0.effectsDone && !$0.skipped }
    for send in running {
      reporter.report(
        "\(context): an effect started by \(send.label) is still running. Receive its actions, or call skipInFlightEffects().",
        file: send.file, line: send.line)
    }
    if running.isEmpty && inFlight > 0 && !data.unattributedEffectsSkipped {
      reporter.report(
        "\(context): \(inFlight) effect(s) started by received actions are still running. Call skipInFlightEffects() to ignore them.",
        file: file, line: line)
    }
  }
}
