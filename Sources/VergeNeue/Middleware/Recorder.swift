import Verge

/// What a `Recorder` captured: the state before the first message and the
/// messages that reached the reducer, in order.
public struct Recording<Message: Sendable, State: Sendable>: Sendable {
  /// The state before the first recorded message; `nil` when nothing was
  /// recorded.
  public let startState: State?
  /// The recorded messages, oldest first.
  public let messages: [Message]

  /// Creates a recording (for example one decoded from a file).
  ///
  /// - Parameters:
  ///   - startState: The state the messages start from.
  ///   - messages: The messages, oldest first.
  public init(startState: State?, messages: [Message]) {
    self.startState = startState
    self.messages = messages
  }
}

/// Records the messages that pass through a store's pipeline, so that
/// replaying them into a fresh store reproduces the same final state.
///
/// ```swift
/// let recorder = Recorder<CounterAction, Counter>()
/// let store = ActionStore(initialState: Counter(), reducer: CounterFeature(), middlewares: [recorder.middleware()])
/// store.send(.increment)
///
/// let fresh = ActionStore(initialState: Counter(), reducer: CounterFeature())
/// try fresh.replay(recorder.recording)
/// ```
///
/// Place the recorder last so it records exactly what the reducer received.
/// Messages are recorded in the order they pass the recorder; with commits
/// racing on several threads a method-reducer store may apply two of them in
/// the other order, so record single-threaded sessions when replay must be
/// exact.
public final class Recorder<Message: Sendable, State: Sendable>: Sendable {
  private struct Log {
    var startState: State?
    var messages: [Message] = []
  }

  private let log = SharedLock(Log())

  /// Creates an empty recorder.
  public init() {}

  /// The middleware that records into this recorder.
  ///
  /// - Returns: The middleware.
  public func middleware() -> Middleware<Message, State> {
    Middleware(name: "recorder") { [self] step in
      log.withLock { log in
        if log.startState == nil { log.startState = step.stateBefore }
        log.messages.append(step.message)
      }
      step.next()
    }
  }

  /// What has been recorded so far.
  public var recording: Recording<Message, State> {
    log.withLock { Recording(startState: $0.startState, messages: $0.messages) }
  }

  /// Forgets everything recorded; the next message starts a new recording.
  public func reset() {
    log.withLock { $0 = Log() }
  }
}

extension Recording where State: Equatable {
  /// Checks that `state` is where this recording starts.
  func verifyStart(_ state: State) throws(NeueError) {
    guard let startState, startState != state else { return }
    throw NeueError.replayStartMismatch(differences: StateDescription.differences(startState, state, maximumValueLength: 60))
  }
}
