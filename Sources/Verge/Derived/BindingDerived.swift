#if canImport(SwiftUI)
import SwiftUI
#endif

/// A derived value that can also be written back to its store: Verge's
/// writable derived value, for form fields and two-way bindings.
///
/// ```swift
/// let name = store.bindingDerived(get: .select(\.name), set: { state, name in state.name = name })
/// name.wrappedValue = "Verge"          // commits to the store
/// print(name.value)                    // "Verge"
/// ```
///
/// Reading follows the store as `Derived` does (`value`, `state`,
/// `sinkState`); writing commits `set` to the store. On Apple platforms
/// `binding` is a SwiftUI `Binding`.
public final class BindingDerived<Value: Sendable>: Sendable {
  /// The read side: the derived value it follows.
  public let derived: Derived<Value>
  private let write: @Sendable (Value) -> Void

  init(derived: Derived<Value>, write: @escaping @Sendable (Value) -> Void) {
    self.derived = derived
    self.write = write
  }

  /// The current value; setting it commits to the store.
  public var wrappedValue: Value {
    get { derived.value }
    set { write(newValue) }
  }

  /// The current value.
  public var value: Value { derived.value }

  /// Verge's name for ``wrappedValue``: reads the current value; setting it
  /// writes through the `set` closure, in a commit of the source store.
  public var primitiveValue: Value {
    get { derived.value }
    set { write(newValue) }
  }

  /// The current value and the one it replaced; see `Derived.state`.
  public var state: Changes<Value> { derived.state }

  /// A number that grows with every change of the value; see
  /// `Derived.version`.
  public var version: UInt64 { derived.version }

  /// Subscribes to the value; see `Derived.sinkState`.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current value.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each change.
  /// - Returns: The subscription's token.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<Value>) -> Void
  ) -> StoreSubscription {
    derived.sinkState(dropsFirst: dropsFirst, queue: queue, isolation: isolation, receive)
  }

  #if canImport(SwiftUI)
  /// The value as a SwiftUI binding: reads follow the store, writes commit.
  public var binding: Binding<Value> {
    Binding(get: { self.wrappedValue }, set: { self.wrappedValue = $0 })
  }
  #endif
}

extension Store {
  /// A derived value that writes back: reads through `get`, and a write
  /// commits `set` to this store.
  ///
  /// ```swift
  /// let count = store.bindingDerived(get: .select(\.count), set: { state, count in state.count = count })
  /// count.wrappedValue = 2
  /// ```
  ///
  /// - Parameters:
  ///   - get: How to compute the value.
  ///   - set: Writes a new value into the state; runs inside a commit.
  /// - Returns: The writable derived value; it does not keep the store alive
  ///   (a write after the store is gone does nothing).
  public func bindingDerived<Value>(
    get: Pipeline<State, Value>,
    set: @escaping @Sendable (inout State, Value) -> Void
  ) -> BindingDerived<Value> {
    BindingDerived(derived: derived(get)) { [weak self] value in
      self?.commit("bindingDerived") { $0.modify { set(&$0, value) } }
    }
  }
}

extension StoreComponentType {
  /// A derived value of the owned store that writes back; see
  /// `Store.bindingDerived(get:set:)`.
  ///
  /// - Parameters:
  ///   - get: How to compute the value.
  ///   - set: Writes a new value into the state; runs inside a commit.
  /// - Returns: The writable derived value.
  public func bindingDerived<Value>(
    get: Pipeline<State, Value>,
    set: @escaping @Sendable (inout State, Value) -> Void
  ) -> BindingDerived<Value> {
    store.bindingDerived(get: get, set: set)
  }
}
