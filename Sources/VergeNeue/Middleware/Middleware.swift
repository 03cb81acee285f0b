/// One stage of a store's middleware pipeline: it sees each message (an
/// enum action, or a mutation or action of a method reducer) on its way to
/// the reducer, with the state before and after it.
///
/// A middleware decides what happens to the message through the
/// `MiddlewareStep` it receives:
///
/// ```swift
/// let audit = Middleware<CounterAction, Counter>(name: "audit") { step in
///   guard step.message != .reset else { return }        // drop it
///   let after = step.next()                             // pass it on
///   if after?.count == 100 { step.dispatch(.celebrate) } // dispatch more
/// }
/// ```
///
/// - Pass it on: `step.next()`, or `step.next(other)` to transform it.
/// - Drop it: return without calling `next`.
/// - Delay it: keep `step` and call `next` later, from another task.
/// - Dispatch more: `step.dispatch(message)` sends a message from the top
///   of the pipeline (for enum actions it is queued behind the current one).
///
/// Middlewares run in the order given to the store, synchronously on the
/// thread that sent the message, outside the store's lock: they may read the
/// store and send to it.
public struct Middleware<Message: Sendable, State: Sendable>: Sendable {
  /// A name for diagnostics.
  public let name: String
  @usableFromInline let handle: @Sendable (MiddlewareStep<Message, State>) -> Void

  /// Creates a middleware.
  ///
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - handle: Called once per message with the step that describes it and
  ///     lets it pass (`next`), or not.
  public init(name: String, _ handle: @escaping @Sendable (MiddlewareStep<Message, State>) -> Void) {
    self.name = name
    self.handle = handle
  }
}

/// One message at one middleware: the message, the state before it, and the
/// ways to pass it on.
public struct MiddlewareStep<Message: Sendable, State: Sendable>: Sendable {
  /// The message as it reached this middleware.
  public let message: Message
  /// The state when the message reached this middleware.
  public let stateBefore: State
  /// How to pass a message on, for a step the generic pipeline made.
  @usableFromInline let forward: (@Sendable (Message) -> State?)?
  /// How to send a message from the top, for a step the generic pipeline made.
  @usableFromInline let restart: (@Sendable (Message) -> Void)?
  /// The dispatch this step belongs to, when an enum-action store's
  /// specialized pipeline made the step; then `forward` and `restart` are
  /// `nil`.
  @usableFromInline let run: ChainRun<Message, State>?
  /// This middleware's position, for `run`.
  @usableFromInline let index: Int

  /// A step of the generic pipeline.
  init(
    message: Message, stateBefore: State,
    forward: @escaping @Sendable (Message) -> State?,
    restart: @escaping @Sendable (Message) -> Void
  ) {
    self.message = message
    self.stateBefore = stateBefore
    self.forward = forward
    self.restart = restart
    run = nil
    index = 0
  }

  /// A step of a specialized pipeline: no closure is formed per step.
  @inlinable
  init(message: Message, stateBefore: State, index: Int, run: ChainRun<Message, State>) {
    self.message = message
    self.stateBefore = stateBefore
    forward = nil
    restart = nil
    self.run = run
    self.index = index
  }

  @inlinable
  func pass(_ message: Message) -> State? {
    if let run {
      return run.driver.forward(message, index &+ 1, run)
    }
    return passGenerically(message)
  }

  @usableFromInline
  func passGenerically(_ message: Message) -> State? {
    forward?(message)
  }

  /// Passes `message` (the original or a replacement) to the rest of the
  /// pipeline and, at its end, to the reducer.
  ///
  /// May be called later, from another task, to delay the message.
  ///
  /// - Parameter message: The message to pass on.
  /// - Returns: The state after the rest of the pipeline handled it, or
  ///   `nil` when the store is gone.
  @inlinable @discardableResult
  public func next(_ message: Message) -> State? {
    pass(message)
  }

  /// Passes the message unchanged; see `next(_:)`.
  ///
  /// - Returns: The state after the rest of the pipeline handled it, or
  ///   `nil` when the store is gone.
  @inlinable @discardableResult
  public func next() -> State? {
    pass(message)
  }

  /// Sends another message through the whole pipeline, from the first
  /// middleware.
  ///
  /// - Parameter message: The message to send.
  public func dispatch(_ message: Message) {
    if let run {
      run.driver.restart(message)
    } else {
      restart?(message)
    }
  }
}

/// Runs a message through an ordered list of middlewares.
struct MiddlewareChain<Message: Sendable, State: Sendable>: Sendable {
  let middlewares: [Middleware<Message, State>]

  var isEmpty: Bool { middlewares.isEmpty }

  /// Runs `message` from middleware `index` on; `terminal` handles what
  /// reaches the end and returns the state after.
  func run(
    _ message: Message,
    from index: Int = 0,
    read: @escaping @Sendable () -> State?,
    restart: @escaping @Sendable (Message) -> Void,
    terminal: @escaping @Sendable (Message) -> State?
  ) -> State? {
    guard index < middlewares.count else { return terminal(message) }
    guard let before = read() else { return nil }
    let step = MiddlewareStep<Message, State>(
      message: message,
      stateBefore: before,
      forward: { [self] forwarded in
        run(forwarded, from: index + 1, read: read, restart: restart, terminal: terminal)
      },
      restart: restart)
    middlewares[index].handle(step)
    return read()
  }
}
