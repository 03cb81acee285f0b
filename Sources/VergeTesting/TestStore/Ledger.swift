import Verge

/// What a `TestStore` has seen of its store: the sends or dispatches the
/// test started (its *origins*), the work still attributed to each, what
/// that work produced and the test has not asserted yet, and each origin's
/// timeline for failure messages.
///
/// Both reducer shapes keep their books here; `Extra` holds what only one
/// shape needs, under the same lock, so one update sees and changes
/// everything at once. Every update wakes the waiting test.
final class Ledger<Item: Sendable, Activity: Sendable, State: Sendable, Extra: Sendable>: Sendable {
  /// One `send` or `dispatch` the test made.
  struct Origin: Sendable {
    /// Forms `label`: only a failure message needs it, and describing an
    /// action is costly.
    let describeLabel: @Sendable () -> String
    let location: FailureLocation
    /// Work attributed to it that has not ended: its own reduction or run,
    /// and every effect it started, transitively.
    var pending = 1
    /// Set by a skip (or the end of the test): its work no longer counts.
    var skipped = false
    /// What its work did, in order.
    var timeline = Timeline()

    /// `send(.load)`, `dispatch(refresh())`.
    var label: String { describeLabel() }

    /// Whether work attributed to it still counts as running.
    var isRunning: Bool { pending > 0 && !skipped }

    /// ` (from send(.load) at File.swift:12)`.
    var fromClause: String { " (from \(label) at \(location.short))" }
  }

  /// What the store's own work produced: an action or mutation with the
  /// change of state it made, or an activity.
  enum Produced: Sendable {
    case item(Item, StateChange<State>)
    case activity(Activity)

    var isActivity: Bool {
      if case .activity = self { true } else { false }
    }

    /// The action or mutation, if it is one.
    var item: Item? {
      if case .item(let item, _) = self { item } else { nil }
    }

    /// The activity, if it is one.
    var activity: Activity? {
      if case .activity(let activity) = self { activity } else { nil }
    }
  }

  /// Something produced by the store's own work (an effect, a dispatched
  /// action), waiting to be asserted.
  struct Received: Sendable {
    let produced: Produced
    /// The index of the origin whose work produced it; `nil` when no origin
    /// of this test store's started that work.
    let origin: Int?
    /// Its entry in the origin's timeline.
    let entry: Int?
    /// Whether the actions its own effects queued with `Effect.send` are
    /// booked too; until then it is not handed to the test, so a test that
    /// receives it and then skips sees those as well.
    var isSettled = true
  }

  /// What `popReceived(activity:)` found.
  enum Next: Sendable {
    /// The oldest thing of the kind asked for, now removed.
    case received(Received)
    /// The oldest thing of the kind is booked, but the thread that reduced
    /// it is still reducing what it queued: wait.
    case settling
    /// Nothing of the kind.
    case nothing
  }

  struct Data: Sendable {
    var origins: [Origin] = []
    var received: [Received] = []
    /// Failures to report at the next step (errors effects threw).
    var problems: [String] = []
    var extra: Extra

    /// Queues `produced` for the test to assert and notes it in its
    /// origin's timeline.
    /// `settled: false` holds it back until `settle()`.
    mutating func append(
      _ produced: Produced, origin: Int?, settled: Bool = true, describe: @escaping @Sendable () -> String
    ) {
      let entry = origin.map { origins[$0].timeline.append(describe, status: .notAsserted) }
      received.append(Received(produced: produced, origin: origin, entry: entry, isSettled: settled))
    }

    /// Marks what became of `received` in its origin's timeline.
    mutating func mark(_ received: Received, _ status: Timeline.Status) {
      guard let origin = received.origin, let entry = received.entry else { return }
      origins[origin].timeline.mark(entry, status)
    }
  }

  private let data: SharedLock<Data>
  /// Signalled after every update.
  let wakeup = Wakeup()

  init(_ extra: Extra) {
    data = SharedLock(Data(extra: extra))
  }

  /// Changes the books, then wakes the waiting test.
  @discardableResult
  func update<Result>(_ body: (inout Data) -> Result) -> Result {
    let result = data.withLock(body)
    wakeup.signal()
    return result
  }

  /// Changes the books without waking the waiting test: for bookkeeping
  /// no waiter looks at.
  @discardableResult
  func modify<Result>(_ body: (inout Data) -> Result) -> Result {
    data.withLock(body)
  }

  /// Reads the books.
  func read<Result>(_ body: (Data) -> Result) -> Result {
    data.withLock { body($0) }
  }

  /// Records a new origin, with its own reduction or run pending.
  ///
  /// - Returns: Its index.
  func begin(_ label: @escaping @Sendable () -> String, at location: FailureLocation) -> Int {
    update { data in
      data.origins.append(Origin(describeLabel: label, location: location))
      return data.origins.count - 1
    }
  }

  /// A copy of every origin.
  var origins: [Origin] { read(\.origins) }

  /// Whether some origin's work is still pending (skipped or not).
  var hasPendingWork: Bool { read { $0.origins.contains { $0.pending > 0 } } }

  /// Whether no origin's work counts as running.
  var isSettled: Bool { read { $0.origins.allSatisfy { !$0.isRunning } } }

  /// Removes and returns the oldest thing not asserted yet of the kind
  /// asked for (activities, or actions and mutations), once it is settled.
  func popReceived(activity: Bool) -> Next {
    data.withLock { data in
      guard let index = data.received.firstIndex(where: { $0.produced.isActivity == activity }) else { return .nothing }
      guard data.received[index].isSettled else { return .settling }
      return .received(data.received.remove(at: index))
    }
  }

  /// Marks what became of `received` in its origin's timeline.
  func mark(_ received: Received, _ status: Timeline.Status) {
    data.withLock { $0.mark(received, status) }
  }

  /// Removes and returns every item not asserted yet, marking them with
  /// `status` in their timelines.
  func takeReceived(marking status: Timeline.Status = .notAsserted) -> [Received] {
    data.withLock { data in
      defer { data.received = [] }
      for received in data.received { data.mark(received, status) }
      return data.received
    }
  }

  /// Marks the work of every origin still pending as skipped, so it no
  /// longer counts as running.
  ///
  /// - Returns: The indices of those origins.
  @discardableResult
  func skipPendingWork() -> [Int] {
    update { data in
      let indices = data.origins.indices.filter { data.origins[$0].pending > 0 }
      for index in indices { data.origins[index].skipped = true }
      return indices
    }
  }
}
