import Verge

/// An undo/redo history of a store's states, fed by a middleware and bounded
/// in size.
///
/// ```swift
/// let history = try UndoHistory<Counter>(limit: 50)
/// let store = ActionStore(initialState: Counter(), reducer: CounterFeature(), middlewares: [history.middleware()])
/// store.send(.increment)
/// history.undo(in: store.core)   // count is 0 again
/// history.redo(in: store.core)   // and 1 again
/// ```
///
/// Each message that changes the state records the state before it; a new
/// change clears the redo list. Undo and redo commit straight to the core
/// store (named `"undo"` and `"redo"`), so they do not pass through the
/// middlewares and are not recorded as changes themselves. When more than
/// `limit` states are recorded, the oldest is forgotten.
public final class UndoHistory<State: Equatable & Sendable>: Sendable {
  private struct Stacks {
    var undo: [State] = []
    var redo: [State] = []
  }

  /// The most states kept for undo (and for redo).
  public let limit: Int
  private let stacks = SharedLock(Stacks())

  /// Creates an empty history.
  ///
  /// - Parameter limit: The most states to keep; at least 1.
  /// - Throws: `NeueError.invalidArgument` when `limit` is less than 1.
  public init(limit: Int) throws(NeueError) {
    guard limit >= 1 else {
      throw .invalidArgument("UndoHistory limit must be at least 1, got \(limit)")
    }
    self.limit = limit
  }

  /// The middleware that records changes into this history.
  ///
  /// - Returns: A middleware for a store of any message type.
  public func middleware<Message: Sendable>() -> Middleware<Message, State> {
    Middleware(name: "undo history") { [self] step in
      guard let after = step.next(), after != step.stateBefore else { return }
      stacks.withLock { stacks in
        stacks.undo.append(step.stateBefore)
        if stacks.undo.count > limit { stacks.undo.removeFirst(stacks.undo.count - limit) }
        stacks.redo.removeAll()
      }
    }
  }

  /// How many steps can be undone.
  public var undoCount: Int { stacks.withLock { $0.undo.count } }

  /// How many steps can be redone.
  public var redoCount: Int { stacks.withLock { $0.redo.count } }

  /// Restores the state before the last recorded change.
  ///
  /// - Parameter store: The core store the history records (`store.core` of
  ///   a Neue store).
  /// - Returns: `false` when there was nothing to undo.
  @discardableResult
  public func undo<Activity>(in store: Store<State, Activity>) -> Bool {
    move(from: \.undo, to: \.redo, in: store, name: "undo")
  }

  /// Re-applies the last undone change.
  ///
  /// - Parameter store: The core store the history records.
  /// - Returns: `false` when there was nothing to redo.
  @discardableResult
  public func redo<Activity>(in store: Store<State, Activity>) -> Bool {
    move(from: \.redo, to: \.undo, in: store, name: "redo")
  }

  /// Forgets every recorded state.
  public func clear() {
    stacks.withLock { $0 = Stacks() }
  }

  private func move<Activity>(
    from source: WritableKeyPath<Stacks, [State]>,
    to destination: WritableKeyPath<Stacks, [State]>,
    in store: Store<State, Activity>,
    name: String
  ) -> Bool {
    guard let target = stacks.withLock({ $0[keyPath: source].popLast() }) else { return false }
    let replaced = store.commit(name) { ref -> State in
      let current = ref.wrapped
      ref.replace(with: target)
      return current
    }
    stacks.withLock { stacks in
      stacks[keyPath: destination].append(replaced)
      if stacks[keyPath: destination].count > limit { stacks[keyPath: destination].removeFirst() }
    }
    return true
  }
}
