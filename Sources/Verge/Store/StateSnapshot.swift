/// The state of a store at one moment, as `store.state` returns it.
///
/// Member lookup reads the state (`store.state.count`). Inside
/// `withObservationTracking` or a SwiftUI body it also registers the
/// property read with Swift Observation, so the reader is invalidated only
/// by commits that change what it read; outside any observer a read
/// registers and keeps nothing, so it costs the read alone. `current` is the
/// whole state value. `print(store.state)` shows the state.
@dynamicMemberLookup
public struct StateSnapshot<State: Equatable & Sendable>: Sendable {
  @usableFromInline let value: State
  @usableFromInline let observation: StateObservation<State>?

  @usableFromInline
  init(_ value: State, observation: StateObservation<State>?) {
    self.value = value
    self.observation = observation
  }

  /// The whole state; inside an observer, registers a dependency on all of it.
  @inlinable
  public var current: State {
    observation?.trackWhole(value)
    return value
  }

  /// Reads a property of the state; inside an observer, registers it with
  /// Swift Observation.
  @inlinable
  public subscript<Value: Equatable & Sendable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    let member = value[keyPath: keyPath]
    observation?.track(keyPath, value: member)
    return member
  }

  /// Reads the value at `keyPath`, however deep; inside an observer,
  /// registers a dependency on that value alone.
  ///
  /// This is how a view of one row of a large collection reads its row: a
  /// member read (`store.state.rows[id: id]`) registers the whole `rows`
  /// collection, so a commit that changes any row invalidates it, while
  /// `store.state[\.rows[id: id]]` registers only the row, so only a commit
  /// that changes that row (or removes it) invalidates it. A list view
  /// reads `store.state[\.rows.ids]`: editing a row leaves the ids alone
  /// and does not invalidate it; an insertion, removal or move does.
  ///
  /// ```swift
  /// let row = store.state[\.rows[id: id]]  // a row view
  /// let ids = store.state[\.rows.ids]      // a list view's ForEach
  /// ```
  ///
  /// - Parameter keyPath: The key path of the value, from the state.
  /// - Returns: The value.
  /// - Complexity: The key path's read. Inside an observer, every commit
  ///   until the value changes reads the key path again to compare (for
  ///   `\.rows[id: id]` on an ``IdentifiedArray``: O(log n)).
  @inlinable
  public subscript<Value: Equatable & Sendable>(keyPath: KeyPath<State, Value>) -> Value {
    let member = value[keyPath: keyPath]
    observation?.track(keyPath, value: member)
    return member
  }

  /// Reads a property that is not `Equatable`; observers that read it are
  /// invalidated by every commit that writes anything.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    observation?.trackUncomparable(keyPath)
    return value[keyPath: keyPath]
  }
}

extension StateSnapshot: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The state's own description, so `print(store.state)` shows the state.
  ///
  /// Registers nothing with Swift Observation: describing the state is for
  /// logs, not a dependency.
  public var description: String {
    String(describing: value)
  }

  /// The state's own debug description (`debugPrint(store.state)`).
  public var debugDescription: String {
    String(reflecting: value)
  }

  /// The state's own mirror, so `dump(store.state)` shows the state's fields.
  public var customMirror: Mirror {
    Mirror(reflecting: value)
  }
}
