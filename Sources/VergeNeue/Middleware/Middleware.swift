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
  @usableFromInline let handler: MiddlewareHandler<Message, State>

  /// Creates a middleware.
  ///
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - handle: Called once per message with the step that describes it and
  ///     lets it pass (`next`), or not.
  public init(name: String, _ handle: @escaping @Sendable (MiddlewareStep<Message, State>) -> Void) {
    self.name = name
    handler = MiddlewareHandler(handle)
  }

  /// Hands `step` to the middleware.
  @inlinable
  func handle(_ step: MiddlewareStep<Message, State>) {
    handler.handle(step)
  }
}

/// A middleware's closure in an object of its own, so that a specialized
/// pipeline can call it through an unmanaged reference.
@usableFromInline
final class MiddlewareHandler<Message: Sendable, State: Sendable>: Sendable {
  @usableFromInline let handle: @Sendable (MiddlewareStep<Message, State>) -> Void

  @usableFromInline
  init(_ handle: @escaping @Sendable (MiddlewareStep<Message, State>) -> Void) {
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
  /// The dispatch this step belongs to; the step keeps it alive.
  @usableFromInline let run: ChainRun<Message, State>
  /// `run` again, for calls: going through an unmanaged reference (`run`
  /// keeps it alive) spares a retain and a release per step.
  @usableFromInline let runReference: Unmanaged<ChainRun<Message, State>>
  /// This middleware's position in the pipeline.
  @usableFromInline let index: Int

  @inlinable
  init(message: Message, stateBefore: State, index: Int, run: ChainRun<Message, State>) {
    self.message = message
    self.stateBefore = stateBefore
    self.run = run
    runReference = Unmanaged.passUnretained(run)
    self.index = index
  }

  @inlinable
  func pass(_ message: Message) -> State? {
    // The step keeps the run, and the run its driver, alive for the call.
    runReference._withUnsafeGuaranteedRef { run in
      Unmanaged.passUnretained(run.driver)._withUnsafeGuaranteedRef { driver in
        driver.forward(message, index &+ 1, run)
      }
    }
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
    run.driver.restart(message)
  }
}

/// Runs a message through an ordered list of middlewares, with closures
/// formed per dispatch (the general path; `ActionStore` forms a specialized
/// driver once instead).
struct MiddlewareChain<Message: Sendable, State: Sendable>: Sendable {
  let middlewares: [Middleware<Message, State>]

  var isEmpty: Bool { middlewares.isEmpty }

  /// Runs `message` through every middleware; `terminal` handles what
  /// reaches the end and returns the state after.
  func run(
    _ message: Message,
    read: @escaping @Sendable () -> State?,
    restart: @escaping @Sendable (Message) -> Void,
    terminal: @escaping @Sendable (Message) -> State?
  ) -> State? {
    let middlewares = middlewares
    let driver = ChainDriver<Message, State>(
      forward: { message, index, run in
        guard index < middlewares.count else { return terminal(message) }
        guard let before = read() else { return nil }
        middlewares[index].handle(MiddlewareStep(message: message, stateBefore: before, index: index, run: run))
        return read()
      },
      restart: restart)
    let run = ChainRun(driver: driver)
    return driver.forward(message, 0, run)
  }
}
