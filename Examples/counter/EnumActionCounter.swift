import VergeNeue

/// The counter in Redux style: an action enum, a `reduce` function, and an
/// effect for the delayed increment, cancellable by id.
struct CounterFeature: ActionReducer {
  typealias State = Counter

  /// What can happen to the counter.
  enum Action: Sendable, Equatable {
    case increment
    case decrement
    case incrementLater
    case cancelIncrementLater
  }

  /// The id of the delayed-increment effect.
  struct LaterID: Hashable, Sendable {}

  /// How long `incrementLater` waits; a fake in tests.
  let delay: Delay

  func reduce(into state: inout Counter, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .incrementLater:
      return .run { [delay] send in
        try await delay()
        send(.increment)
      }
      .cancellable(id: LaterID(), cancelInFlight: true)
    case .cancelIncrementLater:
      return .cancel(id: LaterID())
    }
  }
}

/// The enum-action counter behind the shell's interface: an `ActionStore`
/// with the shipped logging and undo-history middlewares.
final class EnumActionCounter: CounterModel {
  let store: ActionStore<CounterFeature>
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
    store = ActionStore(
      initialState: initialState,
      reducer: CounterFeature(delay: delay),
      middlewares: [.logging { line in log.append(line) }, history.middleware()])
  }

  var style: CounterStyle { .action }
  var count: Int { store.state.count }
  var pendingIncrements: Int { store.effectsInFlight }
  var undoCount: Int { history.undoCount }
  var redoCount: Int { history.redoCount }

  func increment() {
    store.send(.increment)
  }

  func decrement() {
    store.send(.decrement)
  }

  func incrementLater() -> Pending {
    let task = store.send(.incrementLater)
    return { await task.finish() }
  }

  func cancelIncrementLater() {
    store.send(.cancelIncrementLater)
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
