import ExampleTerminal
import Verge

/// The counter in free-commit style: a core `Store` and closures.
///
/// Undo and redo are a commit middleware that remembers the state before
/// each commit; the delayed increment is a keyed store task, so a second
/// request replaces the first (`dropCurrent`).
final class FreeCommitCounter: CounterModel {
  private struct History: Sendable {
    var undo: [Counter] = []
    var redo: [Counter] = []
  }

  private static let laterKey = TaskKey("incrementLater")
  private static let historyLimit = 50

  let store: Store<Counter, Never>
  private let history: Locked<History>
  private let delay: Delay
  private let log: LogBuffer

  /// Creates the counter.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from (a count restored from a file).
  ///   - delay: How long "increment later" waits.
  ///   - log: Where the logging middleware writes.
  init(initialState: Counter = Counter(), delay: @escaping Delay, log: LogBuffer) {
    let history = Locked(History())
    self.history = history
    self.delay = delay
    self.log = log
    // Records every commit except undo/redo themselves; runs inside the
    // commit, so it touches only its own lock, never the store.
    let recordHistory = CommitMiddleware<Counter>(name: "undo history") { before, after, trace in
      guard trace.name != "undo", trace.name != "redo", before != after else { return }
      history.withLock { history in
        history.undo.append(before)
        if history.undo.count > Self.historyLimit { history.undo.removeFirst() }
        history.redo.removeAll()
      }
    }
    store = Store(
      initialState: initialState,
      middlewares: [recordHistory, .logging { line in log.append(Self.shorten(line)) }])
  }

  var style: CounterStyle { .free }
  var count: Int { store.state.count }
  var pendingIncrements: Int { store.taskManager.count(key: Self.laterKey) }
  var undoCount: Int { history.withLock { $0.undo.count } }
  var redoCount: Int { history.withLock { $0.redo.count } }

  func increment() {
    store.commit("increment") { $0.count += 1 }
  }

  func decrement() {
    store.commit("decrement") { $0.count -= 1 }
  }

  func incrementLater() -> Pending {
    let task = store.task(key: Self.laterKey, mode: .dropCurrent) { [store, delay] in
      try await delay()
      try Task.checkCancellation()
      store.commit("incrementLater") { $0.count += 1 }
    }
    return { _ = await task.result }
  }

  func cancelIncrementLater() {
    store.taskManager.cancel(key: Self.laterKey)
  }

  func undo() -> Bool {
    move(from: \.undo, to: \.redo, name: "undo")
  }

  func redo() -> Bool {
    move(from: \.redo, to: \.undo, name: "redo")
  }

  func observe(_ onChange: @escaping @Sendable (Int) -> Void) -> StoreSubscription {
    store.sinkState(dropsFirst: true) { changes in
      changes.ifChanged(\.count) { count in onChange(count) }
    }
  }

  /// Swaps the current state with the top of one stack, pushing it on the other.
  private func move(
    from source: WritableKeyPath<History, [Counter]>,
    to destination: WritableKeyPath<History, [Counter]>,
    name: String
  ) -> Bool {
    store.commit(name) { state -> Bool in
      let current = state.wrapped
      let target = history.withLock { history -> Counter? in
        guard let target = history[keyPath: source].popLast() else { return nil }
        history[keyPath: destination].append(current)
        return target
      }
      guard let target else { return false }
      state.replace(with: target)
      return true
    }
  }

  /// Drops the `(File.swift:12)` location from a core log line, to fit the screen.
  static func shorten(_ line: String) -> String {
    guard let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") else {
      return line
    }
    let head = line[..<open].trimmingSuffixSpaces()
    return head + line[line.index(after: close)...]
  }
}

extension Substring {
  /// The text without trailing spaces.
  func trimmingSuffixSpaces() -> String {
    var text = self
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
