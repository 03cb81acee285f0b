/// A state that keeps some of its own fields consistent on every commit:
/// Verge's `StateType`, whose `reduce(modifying:current:)` runs inside each
/// commit that writes, and once at `init`.
///
/// ```swift
/// struct Cart: StateType {
///   var items: [Item] = []
///   var total = 0                       // always the sum of the items' prices
///
///   static func reduce(modifying: inout InoutRef<Cart>, current: Changes<Cart>) {
///     guard current.hasModified(\.items) else { return }
///     modifying.total = current.items.reduce(0) { $0 + $1.price }
///   }
/// }
/// ```
///
/// The hook runs under the store's lock, after the commit's closure and
/// before every commit middleware, so subscribers, middlewares and
/// observers only ever see a state it has made consistent. `current` is the
/// change the commit made: `previous` is the state before the commit (`nil`
/// at `init`, so every `ifChanged` fires there), `current` the state the
/// closure left. Ask `current.hasModified(\.field)` (or `ifChanged`) to
/// recompute only what the commit changed.
///
/// A state that does not adopt the protocol pays nothing: whether a store
/// runs a hook is decided once, when the store is made.
///
/// - Complexity: A store whose state adopts this keeps the state before each
///   commit, as a commit middleware does: a commit copies the collections
///   it touches.
public protocol StateType: Equatable, Sendable {
  /// Brings derived fields of the state up to date with what the commit
  /// changed. Runs inside every commit that writes, and at `init`.
  ///
  /// It must not use the store (commit, read `state`, subscribe): it runs
  /// while the store is locked.
  ///
  /// - Parameters:
  ///   - modifying: The state being committed, writable in place.
  ///   - current: The commit's change: the state before it (`nil` at
  ///     `init`) and the state its closure left.
  static func reduce(modifying: inout InoutRef<Self>, current: Changes<Self>)
}

extension StateType {
  /// Does nothing: a state may adopt `StateType` without a hook, as in
  /// Verge, where the protocol also marks a store's state. Such a state
  /// still runs the (empty) hook in every commit, so a commit keeps the
  /// state from before it; a state with nothing to reduce need not adopt
  /// the protocol.
  ///
  /// - Parameters:
  ///   - modifying: The state being committed.
  ///   - current: The commit's change.
  public static func reduce(modifying: inout InoutRef<Self>, current: Changes<Self>) {}

  /// The hook as a commit middleware, so that a store runs it on the path
  /// middlewares already take, and a store without it takes none.
  static var reduceMiddleware: CommitMiddleware<Self> {
    CommitMiddleware(name: "StateType.reduce") { before, after, _ in
      reduce(&after, previous: before)
    }
  }

  /// Runs `reduce(modifying:current:)` on `state`.
  ///
  /// - Parameters:
  ///   - state: The state to bring up to date, in place.
  ///   - previous: The state before the change; `nil` at `init`.
  static func reduce(_ state: inout Self, previous: Self?) {
    let current = Changes(previous: previous, current: state)
    var written = false
    withUnsafeMutablePointer(to: &written) { written in
      withUnsafeMutablePointer(to: &state) { pointer in
        var ref = InoutRef(pointer, written: written)
        reduce(modifying: &ref, current: current)
      }
    }
  }
}

/// The reduce hook of `State` when it adopts `StateType`; decided once per
/// store, when the store is made.
///
/// - Parameter state: The state type.
/// - Returns: The hook as a middleware, or `nil` when `State` does not adopt
///   `StateType`.
@usableFromInline
func stateTypeReduceMiddleware<State>(for state: State.Type) -> CommitMiddleware<State>? {
  guard let adopting = state as? any StateType.Type else { return nil }
  func open<Adopting: StateType>(_ type: Adopting.Type) -> Any { type.reduceMiddleware }
  return open(adopting) as? CommitMiddleware<State>
}

/// Runs the reduce hook of `State`, if it adopts `StateType`, on a state
/// that starts a store, as if it had just been committed.
///
/// - Parameter state: The initial state, brought up to date in place.
@usableFromInline
func reduceInitialState<State>(_ state: inout State) {
  guard let adopting = State.self as? any StateType.Type else { return }
  // `Adopting` is `State` itself: the hook runs on the state where it is,
  // with no copy of it (casting to and back would make two, on the stack).
  func open<Adopting: StateType>(_ type: Adopting.Type) {
    withUnsafeMutablePointer(to: &state) { pointer in
      pointer.withMemoryRebound(to: Adopting.self, capacity: 1) { type.reduce(&$0.pointee, previous: nil) }
    }
  }
  open(adopting)
}
