@_spi(Internal) import Verge

/// Reduces enum actions one at a time, in the order they were sent, and runs
/// their effects.
///
/// The queue is a small state machine: a sender appends its action; if no
/// thread is reducing, it becomes the reducer and drains the queue,
/// including what is sent meanwhile; otherwise it returns at once and the
/// reducing thread takes its action in turn. No sender ever waits for
/// another, so re-entrant sends (from a subscriber, a middleware or an
/// effect) cannot deadlock, and none is dropped.
final class ActionEngine<Feature: ActionReducer>: Sendable {
  typealias State = Feature.State
  typealias Action = Feature.Action

  private struct Queued: Sendable {
    let action: Action
    let origin: ActionOrigin
    let ticket: Ticket
  }

  private struct Queue: Sendable {
    var pending: [Queued] = []
    var draining = false
  }

  private struct Running: Sendable {
    let ids: [EffectID]
    let task: Task<Void, Never>
  }

  private struct Effects: Sendable {
    var nextID: UInt64 = 0
    var running: [UInt64: Running] = [:]
  }

  let feature: Feature
  let source: FragmentSource<State>
  /// Delivers an activity of any type; returns the expected type's name
  /// when the type does not fit (nothing is delivered then).
  let activitySink: @Sendable (any Sendable) -> String?
  let chain: MiddlewareChain<Action, State>
  let observers = Observers<ActionEvent<Action, State>>()
  let inFlight = InFlight()
  private let queue = SharedLock(Queue())
  private let effects = SharedLock(Effects())

  init(
    feature: Feature,
    source: FragmentSource<State>,
    middlewares: [Middleware<Action, State>],
    activitySink: @escaping @Sendable (any Sendable) -> String?
  ) {
    self.feature = feature
    self.source = source
    self.activitySink = activitySink
    self.chain = MiddlewareChain(middlewares: middlewares)
  }

  deinit {
    for running in effects.withLock({ Array($0.running.values) }) {
      running.task.cancel()
    }
  }

  // MARK: - Queue

  func send(_ action: Action, origin: ActionOrigin) -> StoreTask {
    let ticket = Ticket()
    inFlight.begin()
    let drains = queue.withLock { queue -> Bool in
      queue.pending.append(Queued(action: action, origin: origin, ticket: ticket))
      if queue.draining { return false }
      queue.draining = true
      return true
    }
    if drains { drain() }
    return StoreTask(ticket: ticket)
  }

  private func drain() {
    var batch: [Queued] = []
    while true {
      let more = queue.withLock { queue -> Bool in
        if queue.pending.isEmpty {
          queue.draining = false
          return false
        }
        swap(&queue.pending, &batch)
        return true
      }
      guard more else { return }
      for entry in batch {
        process(entry)
        inFlight.end()
      }
      batch.removeAll(keepingCapacity: true)
    }
  }

  private func process(_ entry: Queued) {
    guard !chain.isEmpty else {
      reduce(entry.action, origin: entry.origin, ticket: entry.ticket)
      entry.ticket.resolve()
      return
    }
    let resolver = TicketResolver(entry.ticket)
    let source = source
    _ = chain.run(
      entry.action,
      read: { source.pin()?.read() },
      restart: { [weak self] action in _ = self?.send(action, origin: .middleware) },
      terminal: { [weak self] action in
        self?.reduce(action, origin: entry.origin, ticket: resolver.ticket)
      })
  }

  // MARK: - Reducing

  @discardableResult
  private func reduce(_ action: Action, origin: ActionOrigin, ticket: Ticket) -> State? {
    // A scoped store whose parent is gone reduces nothing.
    guard let access = source.pin() else { return nil }
    var effect = Effect<Action>.none
    let trace = CommitTrace(name: "\(action)", file: #fileID, function: #function, line: #line)
    var after: State?
    if observers.isEmpty && chain.isEmpty {
      access.write(trace) { effect = feature.reduce(into: &$0, action: action) }
    } else {
      let (before, new) = access.write(trace) { state -> (State, State) in
        let before = state
        effect = feature.reduce(into: &state, action: action)
        return (before, state)
      }
      after = new
      observers.emit(.reduced(action, before: before, after: new, origin: origin))
    }
    ticket.add(start(effect))
    return after
  }

  /// Replays `action` without effects (for `replay`).
  func reduceIgnoringEffects(_ action: Action) {
    let trace = CommitTrace(name: "\(action)", file: #fileID, function: #function, line: #line)
    source.pin()?.write(trace) { _ = feature.reduce(into: &$0, action: action) }
  }

  // MARK: - Effects

  private func start(_ effect: Effect<Action>) -> [Task<Void, Never>] {
    guard !effect.items.isEmpty else { return [] }
    var cancelled: [EffectID] = []
    for item in effect.items {
      switch item {
      case .cancel(let id):
        cancelled.append(id)
      case .run(let run) where run.cancelInFlight:
        cancelled += run.ids
      default:
        break
      }
    }
    if !cancelled.isEmpty { cancel(ids: Set(cancelled)) }
    var tasks: [Task<Void, Never>] = []
    for item in effect.items {
      switch item {
      case .send(let action):
        _ = send(action, origin: .effect)
      case .run(let run):
        tasks.append(startTask(run))
      case .activity(let activity):
        deliver(activity)
      case .cancel:
        break
      }
    }
    return tasks
  }

  /// Delivers an activity an effect sent, or reports that its type is wrong.
  private func deliver(_ activity: any Sendable) {
    guard let expected = activitySink(activity) else { return }
    observers.emit(.effectFailed(NeueError.activityTypeMismatch(expected: expected, actual: "\(type(of: activity))")))
  }

  private func startTask(_ run: Effect<Action>.Run) -> Task<Void, Never> {
    inFlight.begin()
    let send = Send<Action>(
      deliver: { [weak self] action in _ = self?.send(action, origin: .effect) },
      deliverActivity: { [weak self] activity in self?.deliver(activity) })
    return effects.withLock { effects in
      effects.nextID += 1
      let id = effects.nextID
      let task = Task(priority: run.priority) { [weak self] in
        do {
          try await run.operation(send)
        } catch is CancellationError {
        } catch {
          self?.observers.emit(.effectFailed(error))
        }
        self?.finished(effect: id)
      }
      effects.running[id] = Running(ids: run.ids, task: task)
      return task
    }
  }

  private func finished(effect id: UInt64) {
    let removed = effects.withLock { $0.running.removeValue(forKey: id) != nil }
    if removed { inFlight.end() }
  }

  func cancel(ids: Set<EffectID>) {
    let tasks = effects.withLock { effects -> [Task<Void, Never>] in
      effects.running.values.filter { $0.ids.contains(where: ids.contains) }.map(\.task)
    }
    for task in tasks { task.cancel() }
  }

  var effectsInFlight: Int { effects.withLock { $0.running.count } }
}
