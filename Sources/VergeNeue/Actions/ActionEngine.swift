import Verge
import Synchronization

/// Reduces enum actions one at a time, in the order they were sent, and runs
/// their effects.
///
/// The queue is a small state machine: a sender appends its action; if no
/// thread is reducing, it becomes the reducer and drains the queue,
/// including what is sent meanwhile; otherwise it returns at once and the
/// reducing thread takes its action in turn. No sender ever waits for
/// another, so re-entrant sends (from a subscriber, a middleware or an
/// effect) cannot deadlock, and none is dropped.
///
/// Who reduces is decided with two atomics rather than under the queue's
/// lock: `draining` (set by the one thread reducing) and `pendingCount`
/// (kept equal to the queue's length under the lock). A sender raises the
/// count and then tries to set `draining`; the reducing thread clears
/// `draining` and then reads the count. Both are sequentially consistent, so
/// a queued action is always seen by one of them. That also gives
/// `ActionStore.send` a fast path that takes no lock at all: when it sets
/// `draining` and nothing is queued, it reduces its action in place.
@usableFromInline
final class ActionEngine<Feature: ActionReducer>: Sendable {
  @usableFromInline typealias State = Feature.State
  @usableFromInline typealias Action = Feature.Action

  private struct Queued: Sendable {
    let action: Action
    let cause: ActionCause<Action>
    let ticket: Ticket
  }

  private struct Running: Sendable {
    let ids: [EffectID]
    let task: Task<Void, Never>
  }

  private struct Effects: Sendable {
    var nextID: UInt64 = 0
    var running: [UInt64: Running] = [:]
    /// The running effects marked with each id, so that a cancellation
    /// costs what it cancels.
    var byID: [EffectID: Set<UInt64>] = [:]

    mutating func remove(_ id: UInt64) -> Bool {
      guard let running = running.removeValue(forKey: id) else { return false }
      for effectID in running.ids {
        byID[effectID]?.remove(id)
        if byID[effectID]?.isEmpty == true { byID[effectID] = nil }
      }
      return true
    }
  }

  @usableFromInline let feature: Feature
  let access: any FragmentAccess<State>
  /// Delivers an activity to the store's activity subscribers.
  let activitySink: @Sendable (Feature.Activity) -> Void
  /// Gets the errors effects throw and do not catch.
  let onEffectError: @Sendable (EffectFailure<Feature.Action>) -> Void
  /// The middlewares, for the pipeline `ActionStore` forms.
  @usableFromInline let middlewares: [Middleware<Feature.Action, Feature.State>]
  /// That pipeline, formed once, by the first `ActionStore.send` (see
  /// `installPipeline(_:)`); every action with middlewares goes through
  /// it, sent directly or queued.
  private let pipeline = SharedLock<ChainDriver<Feature.Action, Feature.State>?>(nil)
  /// Whether `pipeline` is formed; set once, after it is.
  @usableFromInline let hasPipeline = Atomic<Bool>(false)
  /// A run of the pipeline no step outlived, kept for the next direct
  /// dispatch; touched only by the thread holding `draining`.
  @usableFromInline let spareRun = DrainerSlot<ChainRun<Feature.Action, Feature.State>>()
  /// Whether the store has middlewares; fixed at creation.
  @usableFromInline let hasMiddlewares: Bool
  @usableFromInline let observers = Observers<ActionEvent<Feature.Action, Feature.State>>()
  @usableFromInline let lifecycle = Observers<LifecycleDelivery<Feature.Action, Feature.State>>()
  /// Sees, for a `Trace`, how long each observed reduction took and which
  /// effect tasks ended after being cancelled; see `TraceHooks`.
  let traceHooks = TraceHooks()
  @usableFromInline let inFlight = InFlight()
  /// Told `true` when a thread starts reducing the queue (a pass), and
  /// `false` when it has emptied it, before it stops: every action an
  /// `Effect.send` queued during the pass has been reduced by then. For
  /// test tooling (`observeQueuePasses`).
  let passes = Observers<Bool>()
  /// Set while a thread reduces; see the type's discussion.
  @usableFromInline let draining = Atomic<Bool>(false)
  /// How many actions `pending` holds.
  @usableFromInline let pendingCount = Atomic<Int>(0)
  /// The values the store's effects run with (the reduction itself reads
  /// its core's, or what a `dependency(_:_:)` child overrides).
  let dependencies: DependencyValues
  private let pending = SharedLock<[Queued]>([])
  private let effects = SharedLock(Effects())

  init(
    feature: Feature,
    access: any FragmentAccess<State>,
    middlewares: [Middleware<Action, State>],
    activitySink: @escaping @Sendable (Feature.Activity) -> Void,
    onEffectError: @escaping @Sendable (EffectFailure<Feature.Action>) -> Void,
    dependencies: DependencyValues
  ) {
    self.dependencies = dependencies
    self.feature = feature
    self.access = access
    self.activitySink = activitySink
    self.onEffectError = onEffectError
    self.middlewares = middlewares
    hasMiddlewares = !middlewares.isEmpty
  }

  deinit {
    pipeline.withLock { $0 }?.isStoreAlive.store(false, ordering: .releasing)
    for running in effects.withLock({ Array($0.running.values) }) {
      running.task.cancel()
    }
  }

  // MARK: - Queue

  /// A middleware's `dispatch`: queued behind the current action.
  @usableFromInline
  func sendFromMiddleware(_ action: Feature.Action) {
    _ = send(action, cause: .middleware)
  }

  /// Installs the middleware pipeline, unless one is already installed.
  /// `ActionStore` forms it in inlinable code, so that its terminal is
  /// compiled in the module that sends, for the concrete reducer.
  @usableFromInline
  func installPipeline(_ driver: ChainDriver<Feature.Action, Feature.State>) {
    pipeline.withLock { installed in
      if installed == nil { installed = driver }
    }
    hasPipeline.store(true, ordering: .releasing)
  }

  /// The installed middleware pipeline.
  @usableFromInline
  var pipelineDriver: ChainDriver<Feature.Action, Feature.State>? {
    pipeline.withLock { $0 }
  }

  /// Tries to become the reducing thread with nothing queued before it; on
  /// success the caller reduces in place and then calls `endDirect()`.
  @inlinable
  func beginDirect() -> Bool {
    guard draining.compareExchange(
      expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    else { return false }
    if pendingCount.load(ordering: .sequentiallyConsistent) == 0 { return true }
    // Actions queued earlier go first: reduce them, stay the reducer.
    drainHeld()
    return true
  }

  /// Ends a direct reduction: hands the queue over, or drains what was sent
  /// meanwhile (by a subscriber, an effect or another thread).
  @inlinable
  func endDirect() {
    draining.store(false, ordering: .sequentiallyConsistent)
    if pendingCount.load(ordering: .sequentiallyConsistent) > 0 {
      drainIfFree()
    }
  }

  /// Whether `effect` would do nothing: it only cancels, and no effect
  /// marked with an id runs. A removed child's cancellation then costs no
  /// more than this look.
  @inlinable
  func startsNothing(_ effect: Effect<Feature.Action, Feature.Activity>) -> Bool {
    guard let items = effect.storage else { return true }
    for item in items {
      guard case .cancel = item else { return false }
    }
    return !runsCancellableEffects
  }

  /// Whether an effect marked with an id runs.
  @usableFromInline
  var runsCancellableEffects: Bool { effects.withLock { !$0.byID.isEmpty } }

  @usableFromInline
  func send(_ action: Action, cause: ActionCause<Action>) -> StoreTask {
    let ticket = Ticket()
    inFlight.begin()
    pending.withLock { pending in
      pending.append(Queued(action: action, cause: cause, ticket: ticket))
      pendingCount.add(1, ordering: .sequentiallyConsistent)
    }
    drainIfFree()
    return StoreTask(ticket: ticket)
  }

  /// Drains the queue unless another thread is reducing.
  @usableFromInline
  func drainIfFree() {
    repeat {
      guard draining.compareExchange(
        expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
      else { return }
      drainHeld()
      draining.store(false, ordering: .sequentiallyConsistent)
      // Something queued after the last look and its sender saw `draining`
      // set: take it, unless another sender took the queue meanwhile.
    } while pendingCount.load(ordering: .sequentiallyConsistent) > 0
  }

  /// Reduces what is queued, until the queue is empty; call while holding
  /// `draining`.
  @usableFromInline
  func drainHeld() {
    var batch: [Queued] = []
    passes.emit(true)
    while true {
      pending.withLock { pending in
        swap(&pending, &batch)
        pendingCount.subtract(batch.count, ordering: .sequentiallyConsistent)
      }
      if batch.isEmpty {
        passes.emit(false)
        return
      }
      for entry in batch {
        if hasMiddlewares {
          processThroughPipeline(entry)
        } else {
          // Through `access`, which a scope's engine writes its part of the
          // root through.
          let tasks = Self.reduce(entry.action, by: .passUnretained(self), feature: feature, cause: entry.cause) {
            trace, _ in
            access.reduce(entry.action, by: self, trace: trace()) ?? .none
          }
          if let tasks { entry.ticket.add(tasks) }
          entry.ticket.resolve()
        }
        inFlight.end()
      }
      batch.removeAll(keepingCapacity: true)
    }
  }

  /// Reduces a queued action through the middlewares: one dispatch of the
  /// pipeline `ActionStore` formed, which a direct send goes through too.
  @inline(never)
  private func processThroughPipeline(_ entry: Queued) {
    // An action reaches the engine of a store with middlewares only after
    // `ActionStore.send` formed its pipeline (effects and middlewares send
    // only once an action was reduced).
    guard let driver = pipelineDriver else {
      fatalError("An action was queued before the store formed its middleware pipeline.")
    }
    let run = ChainRun(driver: driver, cause: entry.cause)
    run.dispatch(entry.action)
    run.settle(entry.ticket)
  }

  // MARK: - Reducing

  /// The observed branch of `reduce(_:cause:knownUnobserved:write:observed:)`:
  /// the observed commit (`FragmentAccess.observedWrite`, which keeps the
  /// states on the heap, shared with method reducers), the trace's timing
  /// and the event observers. Out of line: the unobserved path stays small.
  ///
  /// - Parameter reported: Receives where the state after is, for the time
  ///   of the call; for the middlewares' terminal, which returns it.
  /// - Returns: The effect the reducer returned.
  @usableFromInline
  func reduceObserved(
    _ action: Action, cause: ActionCause<Action>, reported: (UnsafePointer<State>) -> Void
  ) -> Effect<Action, Feature.Activity> {
    // Only a root store has observers: it writes in place.
    // Timed only when a trace is attached.
    let started: ContinuousClock.Instant? = traceHooks.tracing.load(ordering: .relaxed) ? .now : nil
    return access.observedWrite(
      CommitTrace(name: "\(action)", file: #fileID, function: #function, line: #line),
      { feature.reduce(into: &$0, action: action) }
    ) { before, after in
      if let started {
        let duration = started.duration(to: .now).components
        traceHooks.lastDuration.store(
          duration.seconds * 1_000_000_000 + duration.attoseconds / 1_000_000_000, ordering: .relaxed)
      }
      reported(after)
      observers.emit(.reduced(action, before: before.pointee, after: after.pointee, origin: cause.origin))
      lifecycle.emit(
        LifecycleDelivery(
          .reduced(action, before: before.pointee, after: after.pointee, cause: cause), states: (before, after)))
    }
  }

  /// Replays `action` without effects (for `replay`).
  func reduceIgnoringEffects(_ action: Action) {
    access.write(CommitTrace(name: "\(action)", file: #fileID, function: #function, line: #line)) { _ = feature.reduce(into: &$0, action: action) }
  }

  // MARK: - Effects

  /// Starts the effects of a scope's reduction that its root's pipeline
  /// held and ran later, outside any ticket.
  func startLate(_ effect: Effect<Action, Feature.Activity>, origin: Action) {
    _ = start(effect, origin: origin)
  }

  /// Starts `effect`: cancels what it cancels, then sends, runs and
  /// delivers what it holds, in order.
  ///
  /// - Returns: The tasks it started.
  @usableFromInline
  func start(_ effect: Effect<Action, Feature.Activity>, origin: Action) -> [Task<Void, Never>] {
    guard !startsNothing(effect) else { return [] }
    var cancelled: [EffectID] = []
    for item in effect.items {
      switch item {
      case .cancel(let id):
        cancelled.append(id)
      case .run(let run):
        cancelled += run.inFlightIDs
      default:
        break
      }
    }
    if !cancelled.isEmpty { cancel(ids: cancelled) }
    var tasks: [Task<Void, Never>] = []
    for item in effect.items {
      switch item {
      case .send(let action):
        _ = send(action, cause: .effect(run: nil, origin: origin))
      case .run(let run):
        tasks.append(startTask(run, origin: origin))
      case .activity(let activity):
        deliver(activity, run: nil, origin: origin)
      case .cancel:
        break
      }
    }
    return tasks
  }

  /// Delivers an activity an effect sent (`run` is its task, `nil` for
  /// `Effect.activity`).
  private func deliver(_ activity: Feature.Activity, run: EffectRunID?, origin: Action) {
    activitySink(activity)
    lifecycle.emit(LifecycleDelivery(.activitySent(activity, run: run, origin: origin)))
  }

  private func startTask(_ run: Effect<Action, Feature.Activity>.Run, origin: Action) -> Task<Void, Never> {
    inFlight.begin()
    let id = effects.withLock { effects -> UInt64 in
      effects.nextID += 1
      return effects.nextID
    }
    let runID = EffectRunID(rawValue: id)
    // Announced before the task exists, so nothing it sends can come first.
    lifecycle.emit(LifecycleDelivery(.effectStarted(runID, origin: origin)))
    let send = Send<Action, Feature.Activity>(
      deliver: { [weak self] action in _ = self?.send(action, cause: .effect(run: runID, origin: origin)) },
      deliverActivity: { [weak self] activity in self?.deliver(activity, run: runID, origin: origin) })
    // Made under the lock, so `finished` cannot run before it is recorded.
    return effects.withLock { effects in
      let dependencies = dependencies
      let task = Task(priority: run.priority) { [weak self] in
        var failure: (any Error)?
        do {
          try await DependencyValues.withValues(dependencies) { try await run.operation(send) }
        } catch is CancellationError {
          failure = CancellationError()
        } catch {
          failure = error
          if let self {
            self.observers.emit(.effectFailed(error))
            self.onEffectError(EffectFailure(error: error, action: origin, fileID: run.fileID, line: run.line))
          }
        }
        self?.finished(effect: id, error: failure, cancelled: Task.isCancelled)
      }
      effects.running[id] = Running(ids: run.ids, task: task)
      for effectID in run.ids { effects.byID[effectID, default: []].insert(id) }
      return task
    }
  }

  private func finished(effect id: UInt64, error: (any Error)?, cancelled: Bool) {
    let removed = effects.withLock { $0.remove(id) }
    guard removed else { return }
    if cancelled { traceHooks.cancelled(EffectRunID(rawValue: id)) }
    lifecycle.emit(LifecycleDelivery(.effectFinished(EffectRunID(rawValue: id), error: error)))
    inFlight.end()
  }

  /// Cancels every running effect.
  func cancelAll() {
    let tasks = effects.withLock { $0.running.values.map { $0.task } }
    for task in tasks { task.cancel() }
  }

  /// Cancels the running effects marked with one of `ids`; costs a look-up
  /// per id, and nothing more when no effect runs.
  func cancel(ids: [EffectID]) {
    let tasks = effects.withLock { effects -> [Task<Void, Never>] in
      guard !effects.byID.isEmpty else { return [] }
      var runs = Set<UInt64>()
      for id in ids { if let marked = effects.byID[id] { runs.formUnion(marked) } }
      return runs.compactMap { effects.running[$0]?.task }
    }
    for task in tasks { task.cancel() }
  }

  var effectsInFlight: Int { effects.withLock { $0.running.count } }
}
