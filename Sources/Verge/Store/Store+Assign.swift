/// A function that writes a value into a store's state, as
/// `store.assignee(\.field)` makes it: what `assign(to:)` feeds.
public typealias Assignee<Value> = @Sendable (Value) -> Void

extension Store {
  /// A function that writes its argument at `keyPath` of this store's
  /// state, for `assign(to:)`: Verge's way to feed one store from another.
  ///
  /// ```swift
  /// let subscription = source.derived(.select(\.count)).assign(to: target.assignee(\.count))
  /// ```
  ///
  /// The function holds this store weakly: once the store is gone, it does
  /// nothing.
  ///
  /// - Parameter keyPath: Where to write.
  /// - Returns: The function; each call is one commit.
  public func assignee<Value: Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable
  ) -> Assignee<Value> {
    { [weak self] value in
      self?.commit("assign") { $0[dynamicMember: keyPath] = value }
    }
  }
}

extension StoreComponentType {
  /// A function that writes its argument at `keyPath` of the owned store's
  /// state; see `Store.assignee(_:)`.
  ///
  /// - Parameter keyPath: Where to write.
  /// - Returns: The function; each call is one commit.
  public func assignee<Value: Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable
  ) -> Assignee<Value> {
    store.assignee(keyPath)
  }
}

extension ReadableStore {
  /// Writes the state into another store on every change, starting with the
  /// current state: Verge's `assign(to:)`.
  ///
  /// ```swift
  /// let mirror = source.assign(to: target.assignee(\.self))
  /// ```
  ///
  /// `assignee` runs on the committing thread, inside this store's
  /// delivery, in commit order.
  ///
  /// - Parameter assignee: Receives each state; usually `assignee(_:)` of
  ///   another store.
  /// - Returns: The subscription; keep it (or `storeWhileSourceActive()`).
  public func assign(to assignee: @escaping Assignee<State>) -> StoreSubscription {
    sinkState(queue: .committingThread, isolation: nil) { changes in assignee(changes.current) }
  }

  /// Writes each change, `previous` included, into another store: for a
  /// field of type `Changes<State>`.
  ///
  /// - Parameter assignee: Receives each change.
  /// - Returns: The subscription; keep it (or `storeWhileSourceActive()`).
  public func assign(to assignee: @escaping Assignee<Changes<State>>) -> StoreSubscription {
    sinkState(queue: .committingThread, isolation: nil) { changes in assignee(changes) }
  }
}

extension Derived {
  /// Writes the value into another store whenever it changes, starting
  /// with the current value: Verge's `assign(to:)`.
  ///
  /// ```swift
  /// let subscription = source.derived(.select(\.count)).assign(to: target.assignee(\.count))
  /// ```
  ///
  /// - Parameter assignee: Receives each value; usually `assignee(_:)` of a
  ///   store.
  /// - Returns: The subscription. It keeps this derived value alive until
  ///   it ends.
  public func assign(to assignee: @escaping Assignee<Value>) -> StoreSubscription {
    sinkState(queue: .committingThread, isolation: nil) { changes in assignee(changes.current) }
  }

  /// Writes each change of the value, `previous` included, into another
  /// store: for a field of type `Changes<Value>`.
  ///
  /// - Parameter assignee: Receives each change.
  /// - Returns: The subscription. It keeps this derived value alive until
  ///   it ends.
  public func assign(to assignee: @escaping Assignee<Changes<Value>>) -> StoreSubscription {
    sinkState(queue: .committingThread, isolation: nil) { changes in assignee(changes) }
  }
}
