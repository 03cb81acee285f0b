import Verge
import Synchronization

/// A store's middleware pipeline: how a message moves from one middleware to
/// the next and, past the last one, to the reducer.
///
/// `ActionStore` forms one driver per store in inlinable code, so its
/// closures are compiled in the module that uses the store, specialized for
/// the concrete action and state types; every enum action with middlewares
/// goes through it, sent directly or queued. Method reducers'
/// `MiddlewareChain` forms one per dispatch, driven by `forward`. A step
/// carries the dispatch's `ChainRun` (unretained) and its position, so
/// passing a message on forms no closure and counts no reference.
@usableFromInline
final class ChainDriver<Message: Sendable, State: Sendable>: Sendable {
  /// The general path: runs `message` from middleware `index` on (the
  /// reducer past the last one); initializes its last argument with the
  /// state after, or `nil` when the store is gone (out of line: see
  /// `MiddlewareChain`).
  @usableFromInline let forward: @Sendable (Message, Int, ChainRun<Message, State>, UnsafeMutablePointer<State?>) -> Void
  /// Sends a message from the top of the pipeline, queued behind the
  /// current one (a middleware's `dispatch`).
  @usableFromInline let restart: @Sendable (Message) -> Void
  /// Cleared when the store goes away: a step kept past that reduces
  /// nothing. A flag rather than a weak reference: loading a weak
  /// reference on every dispatch costs more than the rest of it.
  @usableFromInline let isStoreAlive = Atomic<Bool>(true)

  // The specialized path (`ActionStore`): a step passes its message to the
  // next middleware in inlinable code (`ChainRun.advance`), and only the
  // reducer sits behind a closure.

  /// The state the current dispatch last saw; `nil` on the general path.
  @usableFromInline let cache: StepStateCache<State>?
  /// Keeps the middlewares, and so their handlers, alive.
  @usableFromInline let middlewares: [Middleware<Message, State>]
  /// The middlewares' handlers, called through unmanaged references
  /// (`middlewares` keeps them alive): no retain and release per step.
  @usableFromInline let handlers: [Unmanaged<MiddlewareHandler<Message, State>>]
  /// Reduces what passed the last middleware; the flag says whether the
  /// caller is the dispatch's synchronous pass (which may use `cache`).
  @usableFromInline let terminal: @Sendable (Message, ChainRun<Message, State>, Bool) -> State?

  /// A general pipeline, driven by `forward`.
  @inlinable
  init(
    forward: @escaping @Sendable (Message, Int, ChainRun<Message, State>, UnsafeMutablePointer<State?>) -> Void,
    restart: @escaping @Sendable (Message) -> Void
  ) {
    self.forward = forward
    self.restart = restart
    cache = nil
    middlewares = []
    handlers = []
    // Not called on this path (`advance` goes through `forward` when there
    // is no cache); it would reduce, as `forward` past the last middleware.
    terminal = { message, run, _ in run.forwardOutOfLine(message, to: Int.max) }
  }

  /// A specialized pipeline through `middlewares` to `terminal`.
  @inlinable
  init(
    middlewares: [Middleware<Message, State>],
    cache: StepStateCache<State>,
    terminal: @escaping @Sendable (Message, ChainRun<Message, State>, Bool) -> State?,
    restart: @escaping @Sendable (Message) -> Void
  ) {
    self.middlewares = middlewares
    handlers = middlewares.map { Unmanaged.passUnretained($0.handler) }
    self.cache = cache
    self.terminal = terminal
    self.restart = restart
    // Not called on this path (`advance` uses the handlers and `terminal`);
    // it would run the pipeline as a kept step does.
    forward = { message, index, run, after in after.initialize(to: run.advance(message, to: index, ownsCache: false)) }
  }
}

/// One dispatch through a pipeline; on `ActionStore`'s specialized
/// pipeline, also where the dispatch's effects are recorded.
///
/// A run that no step outlived is reused for the next dispatch. A run that
/// a middleware kept a step of (`MiddlewareStep.keep()`, to delay the
/// message) gets a ticket, which it resolves when the last kept step is
/// gone.
@usableFromInline
final class ChainRun<Message: Sendable, State: Sendable>: Sendable {
  /// The pipeline the run goes through.
  @usableFromInline let driver: ChainDriver<Message, State>
  /// For an enum action, why it is dispatched (`send` on the store, an
  /// effect, a middleware's `dispatch`), which event observers see.
  @usableFromInline let cause: ActionCause<Message>
  /// Whether the run's synchronous pass reduces only after its sender
  /// found no event observer (the direct send's reused run), which spares
  /// the reducing end looking again. A kept step, which may run later, looks.
  @usableFromInline let knownUnobserved: Bool

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
  /// How many middlewares, from the first, have passed the message on in
  /// this dispatch. A middleware is handed the message only once the one
  /// before it has passed it on, so the middlewares that have passed it
  /// are always the first ones: a step at `index` passes it when this is
  /// `index`, and finds it higher when it (or a kept copy of it) already
  /// did.
  @usableFromInline let passed = Atomic<Int>(0)

  @usableFromInline
  init(driver: ChainDriver<Message, State>, cause: ActionCause<Message> = .send, knownUnobserved: Bool = false) {
    self.driver = driver
    self.cause = cause
    self.knownUnobserved = knownUnobserved
  }

  deinit {
    let ticket = state.withLock { $0.ticket }
    ticket?.resolve()
  }

  /// Passes `message` to the middleware after `index` or, past the last
  /// one, to the reducer.
  ///
  /// Each step passes its message on at most once: a second `next` of one
  /// step (or of a step and its kept copy) stops the process, as it would
  /// reduce the message twice.
  @inlinable
  func pass(_ message: Message, after index: Int, ownsCache: Bool) -> State? {
    guard passed.compareExchange(expected: index, desired: index &+ 1, ordering: .relaxed).exchanged else {
      passedTwice(index)
    }
    return advance(message, to: index &+ 1, ownsCache: ownsCache)
  }

  /// Stops the process: middleware `index` passed one message on twice.
  @usableFromInline
  func passedTwice(_ index: Int) -> Never {
    // `fatalError` rather than `preconditionFailure`: its message is
    // printed in optimized builds too.
    fatalError(
      "Middleware at index \(index) called next() twice for one message (on its step, or on the step and a kept "
        + "copy of it); the reducer would reduce the message twice. Call next at most once per step; send "
        + "another message with dispatch(_:).")
  }

  /// Hands `message` to middleware `index` or, past the last one, to the
  /// reducer; returns the state after.
  ///
  /// On the specialized path this runs inlined in the middleware that
  /// passes the message on, compiled for its types: the next middleware is
  /// called directly, with the state before it from the cache when the
  /// caller is the dispatch's synchronous pass (`ownsCache`).
  @inlinable @inline(__always)
  func advance(_ message: Message, to index: Int, ownsCache: Bool) -> State? {
    // Decided when this is compiled for the state's type: a small state
    // takes the inlined path below, a large one a frame of its own.
    if MemoryLayout<State?>.size > Self.inlineStateLimit {
      return advanceHoldingNoState(message, to: index, ownsCache: ownsCache)
    }
    // The run keeps its driver, the driver its cache and handlers, alive:
    // borrowed, they cost no reference counting. With `takeUnretainedValue()`
    // for the three, a send through 3 middlewares cost 796 instructions
    // instead of 470 (`Benchmarks/callgrind.sh --filter "4 vergeneue"`,
    // 2026-11-28).
    return Unmanaged.passUnretained(driver)._withUnsafeGuaranteedRef { driver in
      guard let cacheReference = driver.cache.map(Unmanaged.passUnretained) else {
        return forwardOutOfLine(message, to: index)
      }
      return cacheReference._withUnsafeGuaranteedRef { cache in
        guard index < driver.handlers.count else { return driver.terminal(message, self, ownsCache) }
        // The state before stays on the heap: in the cache's place for
        // this middleware on the synchronous pass (which runs one step per
        // middleware at a time), in a place of its own for a kept step's.
        let before = ownsCache ? cache.befores + index : UnsafeMutablePointer<State>.allocate(capacity: 1)
        cache.read(into: before, owned: ownsCache)
        let step = MiddlewareStep(
          message: message, stateBefore: before, index: index,
          run: Unmanaged.passUnretained(self), ownsCache: ownsCache)
        driver.handlers[index]._withUnsafeGuaranteedRef { $0.handle(step) }
        before.deinitialize(count: 1)
        if !ownsCache { before.deallocate() }
        return cache.read(owned: ownsCache)
      }
    }
  }

  /// The largest state `advance` handles inlined, in bytes.
  ///
  /// Inlined, `advance` runs in the frame of the middleware that passes the
  /// message on, and the optimizer gives each state it reads or returns a
  /// slot of that frame; the pipeline recurses once per middleware, so with
  /// a large state those slots add up (a 64 KiB state through three
  /// middlewares would not fit a 512 KiB thread).
  @inlinable static var inlineStateLimit: Int { 1024 }

  /// `advance` for a state larger than `inlineStateLimit`: out of line, and
  /// holding no copy of a state in its frame. The states it reads are read
  /// by leaf functions (into the heap, or into the caller's result), so
  /// that each level of the pipeline holds only the result the middleware
  /// receives from `next`.
  @inlinable @inline(never)
  func advanceHoldingNoState(_ message: Message, to index: Int, ownsCache: Bool) -> State? {
    let driver = driver
    guard let cache = driver.cache else { return forwardOutOfLine(message, to: index) }
    guard index < driver.handlers.count else { return driver.terminal(message, self, ownsCache) }
    handOutHoldingNoState(message, to: index, ownsCache: ownsCache)
    return cache.readInLeaf(owned: ownsCache)
  }

  /// Hands `message` to middleware `index` (which exists) with the state
  /// before it on the heap; for a state larger than `inlineStateLimit`.
  @inlinable
  func handOutHoldingNoState(_ message: Message, to index: Int, ownsCache: Bool) {
    let driver = driver
    let cache = driver.cache.unsafelyUnwrapped
    let before = ownsCache ? cache.befores + index : UnsafeMutablePointer<State>.allocate(capacity: 1)
    cache.readInLeaf(into: before, owned: ownsCache)
    driver.handlers[index].takeUnretainedValue().handle(
      MiddlewareStep(
        message: message, stateBefore: before, index: index, run: Unmanaged.passUnretained(self),
        ownsCache: ownsCache))
    before.deinitialize(count: 1)
    if !ownsCache { before.deallocate() }
  }

  /// The general path's `advance`: runs `forward` with the state after on
  /// the heap, and moves it out only here, into the caller's result.
  @usableFromInline @inline(never)
  func forwardOutOfLine(_ message: Message, to index: Int) -> State? {
    let after = UnsafeMutablePointer<State?>.allocate(capacity: 1)
    defer { after.deallocate() }
    driver.forward(message, index, self, after)
    return after.move()
  }

  /// Runs `message` through the pipeline as the dispatch's synchronous
  /// pass, on a run of its own; call while holding the engine's `draining`
  /// (the pass uses the pipeline's state cache). Then `settle(_:)`.
  func dispatch(_ message: Message) {
    // The run keeps its driver, and the driver its cache, alive.
    let cache = driver.cache.unsafelyUnwrapped
    defer { cache.end() }
    guard MemoryLayout<State?>.size > Self.inlineStateLimit, !driver.handlers.isEmpty else {
      return dispatchInlined(message)
    }
    handOutHoldingNoState(message, to: 0, ownsCache: true)
  }

  /// Runs `message` from the first middleware on, as the dispatch's
  /// synchronous pass, and drops the state after: nobody reads it, so with
  /// a large state it is not read into the caller's frame. For
  /// `ActionStore`'s direct send, on its specialized pipeline, which has a
  /// middleware.
  @inlinable @inline(__always)
  func passFromTop(_ message: Message) {
    if MemoryLayout<State?>.size > Self.inlineStateLimit {
      // No path that returns a state here: even one not taken would keep a
      // slot of the state's size in the caller's frame.
      return handOutHoldingNoState(message, to: 0, ownsCache: true)
    }
    _ = advance(message, to: 0, ownsCache: true)
  }

  /// `dispatch(_:)` for a small state, or without middlewares: `advance`
  /// inlined. In a frame of its own: this code is unspecialized, and
  /// unspecialized code reserves a slot of the state's size for each of
  /// its temporaries on entry, which a large state's dispatch must not.
  @inline(never)
  private func dispatchInlined(_ message: Message) {
    _ = advance(message, to: 0, ownsCache: true)
  }

  /// Ends a dispatch's synchronous pass: hands the effect tasks it started
  /// to `ticket` and resolves it, or, when a middleware kept a step, leaves
  /// the ticket to be resolved once the run is gone (as `escape()` does).
  func settle(_ ticket: Ticket) {
    let kept = kept.load(ordering: .relaxed)
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      if kept { state.ticket = ticket }
      defer { state.tasks = [] }
      return state.tasks
    }
    ticket.add(tasks)
    if !kept { ticket.resolve() }
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
    passed.store(0, ordering: .relaxed)
    return recorded.load(ordering: .relaxed) ? finishRecorded() : StoreTask(started: nil)
  }

  @usableFromInline
  func finishRecorded() -> StoreTask {
    recorded.store(false, ordering: .relaxed)
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      defer { state.tasks = [] }
      return state.tasks
    }
    return StoreTask(started: tasks.isEmpty ? nil : tasks)
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
