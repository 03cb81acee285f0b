import Synchronization

/// The practical limit a store can approach: a final class, one `Mutex`
/// around the state and the callbacks, mutation in place, and the callbacks
/// called after unlocking with the new state.
///
/// It keeps no previous state, serializes nothing but the mutation itself,
/// and offers no ordering guarantees across threads: it is what someone would
/// write by hand for one screen, and every scenario compares the library
/// with it in the same run.
///
/// ```swift
/// let baseline = BaselineStore(Counter())
/// baseline.subscribe { state in render(state.count) }
/// baseline.commit { $0.count += 1 }
/// ```
///
/// Everything is `@inlinable`, so the benchmarks compile it specialized for
/// their state types, exactly as a store written by hand inside an app would
/// be. (Compiled as unspecialized generic code across a module boundary, the
/// same commit costs about ten times as much.)
public final class BaselineStore<State: Sendable>: Sendable {
  /// A subscriber: receives the new state after each commit.
  public typealias Callback = @Sendable (State) -> Void

  @usableFromInline
  struct Inner: Sendable {
    @usableFromInline var state: State
    @usableFromInline var callbacks: [Callback] = []

    @inlinable
    init(state: State) {
      self.state = state
    }
  }

  @usableFromInline let inner: Mutex<Inner>

  /// Creates a store holding `state`.
  ///
  /// - Parameter state: The initial state.
  @inlinable
  public init(_ state: State) {
    inner = Mutex(Inner(state: state))
  }

  /// The current state.
  @inlinable
  public var state: State {
    inner.withLock { $0.state }
  }

  /// Adds a callback that receives the state after every commit.
  ///
  /// - Parameter callback: Called after unlocking, on the committing thread.
  @inlinable
  public func subscribe(_ callback: @escaping Callback) {
    inner.withLock { $0.callbacks.append(callback) }
  }

  /// Adds a hand-written select-and-compare callback: it remembers the value
  /// `select` returned last time and calls `onChange` only when it differs.
  ///
  /// This is what a derived value does, written directly.
  ///
  /// - Parameters:
  ///   - select: Picks a small value out of the state.
  ///   - onChange: Receives the picked value when it changed.
  @inlinable
  public func select<Value: Equatable & Sendable>(
    _ select: @escaping @Sendable (State) -> Value,
    onChange: @escaping @Sendable (Value) -> Void
  ) {
    let last = LastValue(select(state))
    subscribe { state in
      let value = select(state)
      if value != last.value {
        last.value = value
        onChange(value)
      }
    }
  }

  /// Mutates the state in place under the lock, then calls every callback
  /// with the new state after unlocking.
  ///
  /// - Parameter body: Mutates the state.
  /// - Complexity: The closure's own cost plus one call per callback; no
  ///   copy of the state is made.
  @inlinable
  public func commit(_ body: (inout State) -> Void) {
    let delivery = inner.withLock { inner -> (State, [Callback])? in
      body(&inner.state)
      return inner.callbacks.isEmpty ? nil : (inner.state, inner.callbacks)
    }
    guard let (state, callbacks) = delivery else { return }
    for callback in callbacks {
      callback(state)
    }
  }
}

/// The last value a select-and-compare callback saw.
@usableFromInline
final class LastValue<Value> {
  @usableFromInline var value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}
