import Verge
import Synchronization

/// The one implementation of a method-reducer store, which `ReducerStore`
/// and `ScopedStore` forward to: the reducer, where its state is, the
/// middleware pipeline, the event observers and the in-flight count.
///
/// The two stores differ only in stored values: `access`, the whole state
/// of a core store or a scope's part of its root's, and how a mutation
/// reaches the core store when no one needs to see it (`core` for a
/// `ReducerStore`, `commitDirectly` for a scope).
@usableFromInline
final class ReducerEngine<Reducer: ReducerType>: Sendable {
  @usableFromInline typealias State = Reducer.TargetState
  typealias Message = ReducerMessage<State>

  @usableFromInline let reducer: Reducer
  /// Where the state is: the whole state of a `ReducerStore`'s core store,
  /// or a `ScopedStore`'s part of its root's (through the root's pipeline).
  let access: any FragmentAccess<State>
  /// For a `ReducerStore` without commit middlewares (which see each
  /// mutation's name): its core store, into which a mutation that nothing
  /// in the pipeline needs to see goes straight; `nil` otherwise.
  @usableFromInline let core: Store<State, Reducer.TargetActivity>?
  /// For a scope: commits a mutation straight into its root's core store,
  /// specialized where the scope was made, when nothing in the root's
  /// pipeline needs to see it; returns `false` (having done nothing)
  /// otherwise, and always for a `ReducerStore`.
  @usableFromInline let commitDirectly: @Sendable (ReducerMutation<State>) -> Bool
  let chain: MiddlewareChain<Message, State>
  /// Whether the store has middlewares; fixed at creation.
  @usableFromInline let hasMiddlewares: Bool
  let sendActivity: @Sendable (Reducer.TargetActivity) -> Void
  let taskManager: TaskManager
  /// For a scope: runs an action's announcement through its root's
  /// pipeline instead of this engine's (empty) one.
  let announce: (@Sendable (ActionInfo) async throws -> Void)?
  /// The values async actions run with (mutations read their core's).
  let dependencies: DependencyValues
  @usableFromInline let observers = Observers<ReducerEvent<Reducer.TargetState>>()
  let inFlight = InFlight()
  private let nextActionID = Atomic<UInt64>(0)

  init(
    reducer: Reducer,
    access: any FragmentAccess<State>,
    core: Store<State, Reducer.TargetActivity>? = nil,
    commitDirectly: @escaping @Sendable (ReducerMutation<State>) -> Bool = { _ in false },
    middlewares: [Middleware<Message, State>],
    taskManager: TaskManager,
    announce: (@Sendable (ActionInfo) async throws -> Void)? = nil,
    sendActivity: @escaping @Sendable (Reducer.TargetActivity) -> Void,
    dependencies: DependencyValues
  ) {
    self.reducer = reducer
    self.access = access
    self.core = core
    self.commitDirectly = commitDirectly
    self.dependencies = dependencies
    self.announce = announce
    self.chain = MiddlewareChain(middlewares: middlewares)
    hasMiddlewares = !middlewares.isEmpty
    self.taskManager = taskManager
    self.sendActivity = sendActivity
  }

  // MARK: - Mutations

  /// Whether a mutation can go straight into the core store: no middleware
  /// and no event observer needs to see it.
  @inlinable
  var commitsDirectly: Bool { !hasMiddlewares && observers.count.load(ordering: .relaxed) == 0 }

  /// How a scope at `keyPath` of this store commits directly: into the
  /// same core store, at the key path, under the same conditions.
  @inlinable
  func commitDirectly<Child: Equatable & Sendable>(
    at keyPath: WritableKeyPath<State, Child> & Sendable
  ) -> @Sendable (ReducerMutation<Child>) -> Bool {
    let field = StateField(keyPath)
    if let core {
      return { [self] mutation in
        // As `ReducerStore.commit(_:)`.
        guard commitsDirectly else { return false }
        core.commit(file: mutation.file, function: mutation.function, line: mutation.line) { ref in
          ref.modify { field.modify(&$0, mutation.body) }
        }
        return true
      }
    }
    let parent = commitDirectly
    return { mutation in
      parent(
        ReducerMutation(mutation.givenName, file: mutation.file, function: mutation.function, line: mutation.line) {
          field.modify(&$0, mutation.body)
        })
    }
  }

  /// Commits through the middlewares and event observers.
  @usableFromInline
  func commitThroughPipeline(_ mutation: ReducerMutation<State>) {
    if chain.isEmpty {
      apply(mutation)
    } else {
      run(.mutation(mutation), admission: nil)
    }
  }

  /// Commits `mutation` to the store; with observers or middlewares,
  /// through the observed commit (`FragmentAccess.observedWrite`), shared
  /// with enum actions.
  ///
  /// - Parameter reported: Receives where the state after the commit is,
  ///   for the time of the call; for the middlewares' terminal, which
  ///   returns it.
  private func apply(_ mutation: ReducerMutation<State>, after reported: ((UnsafePointer<State>) -> Void)? = nil) {
    if observers.count.load(ordering: .relaxed) == 0 && chain.isEmpty {
      access.commit(mutation)
      return
    }
    access.observedWrite(mutation.trace, mutation.body) { before, after in
      reported?(after)
      observers.emit(.committed(mutation, before: before.pointee, after: after.pointee))
    }
  }

  // MARK: - Actions

  func dispatch<Result>(
    _ action: ReducerAction<Reducer, Result>
  ) async throws -> Result {
    let info = begin(action)
    defer { inFlight.end() }
    return try await run(action, info)
  }

  /// Starts `action` in a task of its own and returns the task at once.
  ///
  /// The task starts immediately on the calling thread (`Task.immediate`):
  /// the action runs until its first suspension before this returns, so
  /// actions started one after another begin in that order, and what they
  /// commit before suspending is in the state when this returns. Where
  /// `Task.immediate` is not available (Apple platforms before the 26
  /// releases) the task is enqueued instead. Either way the action counts
  /// as in flight from the moment this returns.
  func start<Result>(
    _ action: ReducerAction<Reducer, Result>
  ) -> Task<Result, any Error> {
    let info = begin(action)
    let operation: @Sendable () async throws -> Result = { [self] in
      defer { inFlight.end() }
      return try await run(action, info)
    }
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return Task.immediate(operation: operation)
    }
    return Task(operation: operation)
  }

  /// Names the dispatch and counts it in flight; `run` must follow, then
  /// `inFlight.end()`.
  private func begin<Result>(_ action: ReducerAction<Reducer, Result>) -> ActionInfo {
    inFlight.begin()
    return ActionInfo(
      name: action.name,
      id: nextActionID.add(1, ordering: .relaxed).newValue,
      location: "\(action.file):\(action.line)")
  }

  private func run<Result>(
    _ action: ReducerAction<Reducer, Result>,
    _ info: ActionInfo
  ) async throws -> Result {
    if let announce {
      try await announce(info)
    } else {
      try await admitThroughPipeline(info)
    }
    observers.emit(.actionStarted(info))
    do {
      let context = ActionContext(engine: self, action: info)
      let result = try await DependencyValues.withValues(dependencies) { try await action.body(context) }
      observers.emit(.actionFinished(info, error: nil))
      return result
    } catch {
      observers.emit(.actionFinished(info, error: error))
      throw error
    }
  }

  /// Runs an action's announcement through the middlewares, if any, and
  /// waits until the last one lets it on (or throws `dropped` once none can
  /// anymore); a scope's actions are announced here too.
  func admitThroughPipeline(_ info: ActionInfo) async throws {
    if !chain.isEmpty { try await admit(info) }
  }

  private func admit(_ info: ActionInfo) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let admission = Admission(continuation, info: info)
      run(.action(info), admission: admission)
    }
  }

  // MARK: - Pipeline

  private func run(_ message: Message, admission: Admission?) {
    chain.run(
      message,
      read: { [access] in $0.initialize(to: access.read()) },
      restart: { [self] message in run(message, admission: nil) },
      terminal: { [self] message, after in
        switch message {
        case .mutation(let mutation):
          let wrote = InitializationFlag()
          apply(mutation) {
            after.initialize(to: $0.pointee)
            wrote.isSet = true
          }
          if !wrote.isSet { initializeToCurrent(after, of: access) }
        case .action(let info):
          if let admission, admission.info == info { admission.admit() }
          initializeToCurrent(after, of: access)
        }
      })
  }
}

/// An action waiting to pass the middlewares. When nothing can let it pass
/// anymore (every step holding it is gone), it is dropped.
final class Admission: Sendable {
  let info: ActionInfo
  private let continuation: SharedLock<CheckedContinuation<Void, any Error>?>

  init(_ continuation: CheckedContinuation<Void, any Error>, info: ActionInfo) {
    self.continuation = SharedLock(continuation)
    self.info = info
  }

  func admit() {
    take()?.resume()
  }

  deinit {
    take()?.resume(throwing: NeueError.dropped(name: info.name))
  }

  private func take() -> CheckedContinuation<Void, any Error>? {
    continuation.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }
  }
}
