import Synchronization

/// Names a line of tasks in a `TaskManager`.
///
/// `TaskKey()` makes a key no other task shares; `TaskKey("load")` names a
/// line that `mode` and `cancel(key:)` act on.
public struct TaskKey: Hashable, Sendable, CustomStringConvertible {
  private enum Storage: Hashable, Sendable {
    case named(String)
    case unique(UInt64)
  }

  private static let counter = Atomic<UInt64>(0)
  private let storage: Storage

  /// A key shared by every task created with the same name.
  ///
  /// - Parameter name: The line's name.
  public init(_ name: String) {
    storage = .named(name)
  }

  /// A key that no other task shares.
  public init() {
    storage = .unique(Self.counter.add(1, ordering: .relaxed).newValue)
  }

  /// The name, or `#n` for a unique key.
  public var description: String {
    switch storage {
    case .named(let name): return name
    case .unique(let number): return "#\(number)"
    }
  }
}

/// How a new task relates to the tasks already running under its key.
public enum TaskMode: Sendable {
  /// Cancel the running and queued tasks of the key, then start the new one.
  case dropCurrent
  /// Start the new task once every task already queued under the key has
  /// finished, in the order they were added.
  case waitInCurrent
}

/// Runs a store's async work as Swift concurrency tasks, grouped by key, and
/// cancels all of it when the owner (the store) goes away.
///
/// ```swift
/// store.task(key: TaskKey("refresh"), mode: .dropCurrent) {
///   let photos = try await api.photos()
///   store.commit { $0.photos = photos }
/// }
/// ```
///
/// The manager never keeps its owner alive: the tasks it starts hold it
/// weakly (your closure may still capture what it likes).
public final class TaskManager: Sendable {
  private struct Running: Sendable {
    let id: UInt64
    let task: Task<Void, any Error>
  }

  private struct Lines: Sendable {
    var nextID: UInt64 = 0
    var byKey: [TaskKey: [Running]] = [:]
  }

  private let lines = LockedBox(Lines())

  /// Creates an empty manager.
  public init() {}

  deinit {
    cancelAll()
  }

  /// Starts `operation` under `key` as `mode` says.
  ///
  /// - Parameters:
  ///   - key: The line the task belongs to; unique by default.
  ///   - mode: What to do with the tasks already under `key`.
  ///   - priority: The task's priority.
  ///   - operation: The work. Like `Task { }`, it runs on the caller's actor
  ///     (from main-actor code, on the main actor; use `taskDetached` for
  ///     work off it). It sees `Task.isCancelled` become true when it is
  ///     dropped, cancelled by key or with the manager.
  /// - Returns: The task; `await task.value` waits for it and rethrows its
  ///   error, or `CancellationError` when it was cancelled before it started.
  @discardableResult
  public func task(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    @_inheritActorContext _ operation: @escaping @isolated(any) @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    start(key: key, mode: mode, priority: priority, detached: false, operation)
  }

  /// Starts `operation` under `key` as `task(key:mode:priority:_:)` does,
  /// as a detached task: it inherits neither the caller's priority nor its
  /// task-local values (Verge's `taskDetached`).
  ///
  /// - Parameters:
  ///   - key: The line the task belongs to; unique by default.
  ///   - mode: What to do with the tasks already under `key`.
  ///   - priority: The task's priority.
  ///   - operation: The work; cancelled as a task's is.
  /// - Returns: The task, to await or cancel.
  @discardableResult
  public func taskDetached(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    start(key: key, mode: mode, priority: priority, detached: true, operation)
  }

  private func start(
    key: TaskKey,
    mode: TaskMode,
    priority: TaskPriority?,
    detached: Bool,
    _ operation: @escaping @isolated(any) @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    let (task, dropped) = lines.withLock { lines -> (Task<Void, any Error>, [Running]) in
      let id = lines.nextID
      lines.nextID += 1
      var dropped: [Running] = []
      var predecessor: Task<Void, any Error>?
      switch mode {
      case .dropCurrent:
        dropped = lines.byKey[key] ?? []
        lines.byKey[key] = nil
      case .waitInCurrent:
        predecessor = lines.byKey[key]?.last?.task
      }
      let body: @Sendable () async throws -> Void = { [weak self, predecessor] in
        defer { self?.finished(key: key, id: id) }
        if let predecessor {
          _ = await predecessor.result
        }
        try Task.checkCancellation()
        try await operation()
      }
      let task = detached
        ? Task.detached(priority: priority, operation: body)
        : Task(priority: priority, operation: body)
      lines.byKey[key, default: []].append(Running(id: id, task: task))
      return (task, dropped)
    }
    for running in dropped {
      running.task.cancel()
    }
    return task
  }

  /// Cancels the running and queued tasks of `key`.
  ///
  /// - Parameter key: The line to cancel.
  public func cancel(key: TaskKey) {
    let running = lines.withLock { $0.byKey.removeValue(forKey: key) ?? [] }
    for entry in running { entry.task.cancel() }
  }

  /// Cancels every task.
  public func cancelAll() {
    let running = lines.withLock { lines -> [Running] in
      defer { lines.byKey = [:] }
      return lines.byKey.values.flatMap { $0 }
    }
    for entry in running { entry.task.cancel() }
  }

  /// How many tasks are running or queued, under `key` or in all.
  ///
  /// - Parameter key: The line to count; `nil` counts every line.
  /// - Returns: The number of tasks not yet finished or cancelled.
  public func count(key: TaskKey? = nil) -> Int {
    lines.withLock { lines in
      if let key { return lines.byKey[key]?.count ?? 0 }
      return lines.byKey.values.reduce(0) { $0 + $1.count }
    }
  }

  private func finished(key: TaskKey, id: UInt64) {
    lines.withLock { lines in
      guard var running = lines.byKey[key] else { return }
      running.removeAll { $0.id == id }
      lines.byKey[key] = running.isEmpty ? nil : running
    }
  }
}

extension Store {
  /// Starts async work that belongs to this store; see `TaskManager`.
  ///
  /// ```swift
  /// store.task { await runMyOperation() }
  /// store.task(key: .init("search"), mode: .dropCurrent) { try await search(text) }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The line the task belongs to; unique by default.
  ///   - mode: What to do with the tasks already under `key`.
  ///   - priority: The task's priority.
  ///   - operation: The work, on the caller's actor as with `Task { }`;
  ///     cancelled when the store goes away.
  /// - Returns: The task, to await or cancel.
  @discardableResult
  public func task(
    key: TaskKey = TaskKey(),
    mode: TaskMode = .dropCurrent,
    priority: TaskPriority? = nil,
    @_inheritActorContext _ operation: @escaping @isolated(any) @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    taskManager.task(key: key, mode: mode, priority: priority, operation)
  }
}
