import Verge

/// The work one `send` started: the action's reduction and the effects it
/// returned.
///
/// ```swift
/// await store.send(.refresh).finish()   // reduced, and its effects done
/// ```
///
/// The effects of a root store live as long as the store. Those of a scope
/// with its own reducer (`Store.scope(_:reducer:)`) live as long as the
/// scope or a `StoreTask` it returned, so
/// `await store.scope(\.draft, reducer: DraftFeature()).send(.save).finish()`
/// waits for them.
public struct StoreTask: Sendable {
  /// Where the action's effects are recorded, and what keeps them running
  /// while this task lives: the engine of a scope with its own reducer;
  /// `nil` for a root store, whose effects live as long as the store.
  ///
  /// `nil` for an action reduced before `send` returned that started no
  /// effect: there is nothing to wait for or cancel, and dropping the task
  /// releases nothing. One optional, not two: a dropped task that holds
  /// nothing is then released with one test, not with calls into the
  /// runtime.
  @usableFromInline let handle: (ticket: Ticket, owner: (any AnyObject & Sendable)?)?

  @usableFromInline
  init(ticket: Ticket?, owner: (any AnyObject & Sendable)? = nil) {
    handle = ticket.map { ($0, owner) }
  }

  /// The task of an action reduced in place, whose reduction started
  /// `tasks` (`nil`: none).
  @inlinable
  init(started tasks: [Task<Void, Never>]?) {
    handle = tasks.map { (Ticket(resolvedWith: $0), nil) }
  }

  var ticket: Ticket? { handle?.ticket }

  /// Waits until the action has been reduced and every effect it started
  /// has ended (effects those effects' actions started are not included).
  public func finish() async {
    guard let ticket else { return }
    for task in await ticket.reducedTasks() {
      await task.value
    }
  }

  /// Cancels the effects the action started.
  public func cancel() {
    ticket?.cancel()
  }
}

/// Where a sent action's effects are recorded once it has been reduced.
@usableFromInline
final class Ticket: Sendable {
  private struct State {
    var resolved = false
    var cancelled = false
    var tasks: [Task<Void, Never>] = []
    var waiters: [CheckedContinuation<[Task<Void, Never>], Never>] = []
  }

  private let state = SharedLock(State())

  init() {}

  /// A ticket for an action already reduced, whose reduction started
  /// `tasks`.
  @usableFromInline
  convenience init(resolvedWith tasks: [Task<Void, Never>]) {
    self.init()
    add(tasks)
    resolve()
  }

  func add(_ tasks: [Task<Void, Never>]) {
    guard !tasks.isEmpty else { return }
    let cancelled = state.withLock { state -> Bool in
      state.tasks += tasks
      return state.cancelled
    }
    if cancelled { for task in tasks { task.cancel() } }
  }

  func resolve() {
    let (waiters, tasks) = state.withLock { state in
      state.resolved = true
      defer { state.waiters = [] }
      return (state.waiters, state.tasks)
    }
    for waiter in waiters { waiter.resume(returning: tasks) }
  }

  func cancel() {
    let tasks = state.withLock { state in
      state.cancelled = true
      return state.tasks
    }
    for task in tasks { task.cancel() }
  }

  func reducedTasks() async -> [Task<Void, Never>] {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> [Task<Void, Never>]? in
        if state.resolved { return state.tasks }
        state.waiters.append(continuation)
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
