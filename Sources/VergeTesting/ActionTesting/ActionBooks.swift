import VergeNeue

/// What only the enum-action shape keeps in its ledger: which send each
/// reduction and each effect task belongs to.
struct ActionBooks<Action: Sendable, State: Sendable>: Sendable {
  /// A past reduction, for attributing what an `Effect.send` queued.
  struct Past: Sendable {
    let action: Action
    let origin: Int?
    /// `Describe.action(action)`, formed the first time it is compared.
    var rendered: String?
  }

  /// Sends made whose action has not been reduced yet, oldest first.
  var awaitingReduction: [Int] = []
  /// Each send's reduction, by origin index, until its `send` takes it.
  var sendReductions: [Int: StateChange<State>] = [:]
  /// Whether a thread is reducing the store's queue (a pass). What it
  /// books is held back until the pass ends, when every action those
  /// reductions queued with `Effect.send` is booked too.
  var inPass = false
  /// Whether the pass under way booked something.
  var holding = false
  /// The sends reduced in that pass; their `send` waits for its end.
  var unsettledSends: [Int] = []
  /// The origin of the reduction under way: the effects it starts belong
  /// to it.
  var current: Int?
  /// An effect task started while observed.
  struct Run: Sendable {
    /// Its origin; `nil`: no send of the test's.
    let origin: Int?
    /// Its entry in the origin's timeline.
    let entry: Int?
  }

  /// Every effect task started while observed. Kept after the task ends:
  /// what it sent may be reduced later.
  var runs: [EffectRunID: Run] = [:]
  /// The latest reductions, oldest first.
  var past: [Past] = []
  /// Effect tasks running that no send of the test's started.
  var unattributedRunning = 0
  /// Set by a skip: those effects no longer count.
  var unattributedSkipped = false
  /// Whether a task waits for the store to come to rest.
  var idleWatcherRunning = false

  /// The origin of the latest past reduction of `action`.
  mutating func originOfLatest(_ action: Action) -> Int? {
    let target = Describe.action(action)
    for index in past.indices.reversed() {
      let rendered = past[index].rendered ?? Describe.action(past[index].action)
      past[index].rendered = rendered
      if rendered == target { return past[index].origin }
    }
    return nil
  }
}

extension Ledger where Extra == ActionBooks<Item, State> {
  /// Records a `send` about to be made.
  ///
  /// - Returns: Its origin index.
  func beginSend(_ label: @escaping @Sendable () -> String, at location: FailureLocation) -> Int {
    update { data in
      data.origins.append(.init(describeLabel: label, location: location))
      let index = data.origins.count - 1
      data.extra.awaitingReduction.append(index)
      return index
    }
  }

  /// Removes and returns the reduction of the send `index`, once there
  /// and the thread that reduced it has reduced what it queued.
  func takeReduction(of index: Int) -> StateChange<State>? {
    modify { data in
      guard !data.extra.unsettledSends.contains(index) else { return nil }
      return data.extra.sendReductions.removeValue(forKey: index)
    }
  }
}

extension Ledger.Data where Extra == ActionBooks<Item, State> {
  /// The origin of what the effect task `run` sent; for `nil` (an
  /// `Effect.send` or `Effect.activity`), the reduction under way.
  private func origin(of run: EffectRunID?) -> Int? {
    guard let run else { return extra.current }
    return extra.runs[run]?.origin ?? nil
  }

  /// Books one lifecycle event of the store under test.
  mutating func record(_ delivery: LifecycleDelivery<Item, State>) {
    switch delivery.event {
    case .reduced(let action, _, _, let cause):
      // Copied from where the engine lends them, never bound out of the
      // event: binding a state holds it on the stack.
      guard let (before, after) = delivery.states else { fatalError("a reduced event is delivered with its states") }
      let change = StateChange { $0.initialize(from: before, count: 1); $1.initialize(from: after, count: 1) }
      let origin: Int?
      switch cause {
      case .send:
        // Sent to the store directly, bypassing the test store, when no
        // send of the test's awaits its reduction.
        guard !extra.awaitingReduction.isEmpty else {
          origin = nil
          break
        }
        let index = extra.awaitingReduction.removeFirst()
        origins[index].pending -= 1
        extra.sendReductions[index] = change
        if extra.inPass { extra.unsettledSends.append(index) }
        origin = index
      case .effect(let run?, _):
        origin = self.origin(of: run)
      case .effect(nil, let source):
        origin = extra.originOfLatest(source)
      case .middleware:
        origin = nil
      }
      if case .send = cause {} else {
        append(.item(action, change), origin: origin, settled: !extra.inPass) {
          "received \(Describe.action(action))"
        }
      }
      if extra.inPass { extra.holding = true }
      extra.current = origin
      // At most 256 past reductions are kept to attribute `Effect.send`
      // actions: one is reduced by the thread that reduced its origin, in
      // the same pass, so its origin is recent.
      if extra.past.count == 256 { extra.past.removeFirst(extra.past.count / 2) }
      extra.past.append(.init(action: action, origin: origin))
    case .effectStarted(let run, let source):
      let origin = extra.current
      let entry = origin.map { origins[$0].timeline.append({ "\(run) started by \(Describe.action(source))" }, status: .running) }
      extra.runs[run] = .init(origin: origin, entry: entry)
      if let origin {
        origins[origin].pending += 1
      } else {
        extra.unattributedRunning += 1
      }
    case .effectFinished(let run, let error):
      // Errors arrive through `observeEvents`, which reports every failure.
      guard let started = extra.runs[run] else { return }
      if let origin = started.origin {
        origins[origin].pending -= 1
        if let entry = started.entry {
          let status: Timeline.Status = switch error {
          case nil: .ended
          case is CancellationError: .cancelled
          default: .failed
          }
          origins[origin].timeline.mark(entry, status)
        }
      } else {
        extra.unattributedRunning -= 1
      }
    case .activitySent(let sent, let run, _):
      // Always the reducer's type: effects carry it.
      guard let activity = sent as? Activity else { return }
      append(.activity(activity), origin: origin(of: run)) { "activity \(Describe.action(activity))" }
    }
  }
}
