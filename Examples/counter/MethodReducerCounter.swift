import VergeNeue

/// The counter as a method reducer: every change is a named method.
struct CounterReducer: ReducerType {
  typealias TargetState = Counter

  /// How long `incrementLater` waits; a fake in tests.
  let delay: Delay

  /// Adds one.
  func increment() -> Mutation {
    .init { $0.count += 1 }
  }

  /// Subtracts one.
  func decrement() -> Mutation {
    .init { $0.count -= 1 }
  }

  /// Waits, then adds one; commits nothing when cancelled while waiting.
  func incrementLater() -> Action<Void> {
    .init { context in
      try await delay()
      try Task.checkCancellation()
      context.commit { $0.increment() }
    }
  }
}

/// The method-reducer counter behind the shell's interface: a
/// `ReducerStore` with the shipped logging and undo-history middlewares.
final class MethodReducerCounter: CounterModel {
  private static let laterKey = TaskKey("incrementLater")

  let store: ReducerStore<CounterReducer>
  let history: UndoHistory<Counter>
  private let log: LogBuffer

  /// Creates the counter.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from (a count restored from a file).
  ///   - delay: How long "increment later" waits.
  ///   - log: Where the logging middleware writes.
  init(initialState: Counter = Counter(), delay: @escaping Delay, log: LogBuffer) {
    let history = try! UndoHistory<Counter>(limit: 50)  // 50 is a valid limit
    self.history = history
    self.log = log
    store = ReducerStore(
      initialState: initialState,
      reducer: CounterReducer(delay: delay),
      middlewares: [.logging { line in log.append(line) }, history.middleware()])
  }

  var style: CounterStyle { .method }
  var count: Int { store.state.count }
  var pendingIncrements: Int { store.taskManager.count(key: Self.laterKey) }
  var undoCount: Int { history.undoCount }
  var redoCount: Int { history.redoCount }

  func increment() {
    store.commit { $0.increment() }
  }

  func decrement() {
    store.commit { $0.decrement() }
  }

  func incrementLater() -> Pending {
    let task = store.task(key: Self.laterKey, mode: .dropCurrent) { [store] in
      try await store.dispatch { $0.incrementLater() }
    }
    return { _ = await task.result }
  }

  func cancelIncrementLater() {
    store.taskManager.cancel(key: Self.laterKey)
  }

  func undo() -> Bool {
    logged("undo") { history.undo(in: store.core) }
  }

  func redo() -> Bool {
    logged("redo") { history.redo(in: store.core) }
  }

  func observe(_ onChange: @escaping @Sendable (Int) -> Void) -> StoreSubscription {
    store.sinkState(dropsFirst: true) { changes in
      changes.ifChanged(\.count) { count in onChange(count) }
    }
  }

  /// Runs an undo or redo and logs it as the middlewares would have.
  private func logged(_ name: String, _ body: () -> Bool) -> Bool {
    let before = count
    guard body() else { return false }
    log.append("\(name): count \(before) → \(count)")
    return true
  }
}
