@_spi(Internal) import Verge
import Synchronization

/// A store's middleware pipeline: how a message moves from one middleware to
/// the next and, past the last one, to the reducer.
///
/// `ActionStore` forms one driver per store in inlinable code, so its
/// closures are compiled in the module that uses the store, specialized for
/// the concrete action and state types; the general path
/// (`MiddlewareChain`) forms one per dispatch. A step carries the dispatch's
/// `ChainRun` (unretained) and its position, so passing a message on forms
/// no closure and counts no reference.
@usableFromInline
final class ChainDriver<Message: Sendable, State: Sendable>: Sendable {
  /// Runs `message` from middleware `index` on (the reducer past the last
  /// one); returns the state after, or `nil` when the store is gone.
  @usableFromInline let forward: @Sendable (Message, Int, ChainRun<Message, State>) -> State?
  /// Sends a message from the top of the pipeline, queued behind the
  /// current one (a middleware's `dispatch`).
  @usableFromInline let restart: @Sendable (Message) -> Void
  /// Cleared when the store goes away: a step kept past that reduces
  /// nothing. A flag rather than a weak reference: loading a weak
  /// reference on every dispatch costs more than the rest of it.
  @usableFromInline let isStoreAlive = Atomic<Bool>(true)

  @inlinable
  init(
    forward: @escaping @Sendable (Message, Int, ChainRun<Message, State>) -> State?,
    restart: @escaping @Sendable (Message) -> Void
  ) {
    self.forward = forward
    self.restart = restart
  }
}

/// One dispatch through a pipeline; on `ActionStore`'s specialized
/// pipeline, also where the dispatch's effects are recorded.
///
/// A run that no step outlived is reused for the next dispatch. A run that
/// a middleware kept a step of (`MiddlewareStep.keep()`, to delay the
/// message) gets a ticket, which it resolves when the last kept step is
/// gone, like `TicketResolver`.
@usableFromInline
final class ChainRun<Message: Sendable, State: Sendable>: Sendable {
  /// The pipeline the run goes through.
  @usableFromInline let driver: ChainDriver<Message, State>

  private struct Record {
    var tasks: [Task<Void, Never>] = []
    var ticket: Ticket?
  }

  private let state = SharedLock(Record())
  /// Whether `add` recorded anything since the run was last finished.
  @usableFromInline let recorded = Atomic<Bool>(false)
  /// Whether a middleware kept a step of this run since it was last
  /// finished. Set only during the synchronous dispatch (a step can be kept
  /// only while it is borrowed), so the dispatching thread sees it after.
  @usableFromInline let kept = Atomic<Bool>(false)

  @usableFromInline
  init(driver: ChainDriver<Message, State>) {
    self.driver = driver
  }

  deinit {
    let ticket = state.withLock { $0.ticket }
    ticket?.resolve()
  }

  /// Passes `message` to the middleware after `index` or, past the last
  /// one, to the reducer.
  @inlinable
  func pass(_ message: Message, after index: Int) -> State? {
    // The run keeps its driver alive.
    Unmanaged.passUnretained(driver)._withUnsafeGuaranteedRef { $0.forward(message, index &+ 1, self) }
  }

  /// Notes that a step of this run was kept (see `kept`).
  func markKept() {
    kept.store(true, ordering: .relaxed)
  }

  /// Records the effect tasks a reduction of this dispatch started.
  @usableFromInline
  func add(_ tasks: [Task<Void, Never>]) {
    guard !tasks.isEmpty else { return }
    recorded.store(true, ordering: .relaxed)
    let ticket = state.withLock { state -> Ticket? in
      if state.ticket == nil { state.tasks += tasks }
      return state.ticket
    }
    ticket?.add(tasks)
  }

  /// The handle of a dispatch no step outlived; readies the run for reuse.
  @inlinable
  func finishInPlace() -> StoreTask {
    recorded.load(ordering: .relaxed) ? finishRecorded() : StoreTask(ticket: nil)
  }

  @usableFromInline
  func finishRecorded() -> StoreTask {
    recorded.store(false, ordering: .relaxed)
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      defer { state.tasks = [] }
      return state.tasks
    }
    guard !tasks.isEmpty else { return StoreTask(ticket: nil) }
    let ticket = Ticket()
    ticket.add(tasks)
    ticket.resolve()
    return StoreTask(ticket: ticket)
  }

  /// The handle of a dispatch a middleware kept a step of: resolved when
  /// the run goes away.
  @usableFromInline
  func escape() -> StoreTask {
    let ticket = Ticket()
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.ticket = ticket
      defer { state.tasks = [] }
      return state.tasks
    }
    ticket.add(tasks)
    return StoreTask(ticket: ticket)
  }
}
