/// A type that owns a store — a view model, a feature object — and gains
/// the store's API on itself.
///
/// ```swift
/// final class CounterViewModel: StoreComponentType {
///   struct State: Equatable { var count: Int = 0 }
///   let store: Store<State, Never> = .init(initialState: .init())
///   func increment() { commit { $0.count += 1 } }
/// }
/// ```
///
/// A component is `Sendable`: the store's handlers and tasks may use it from
/// other threads. One whose stored properties are `let`s of `Sendable` types
/// (typically just `let store`) conforms as it is; one with mutable state is
/// `@MainActor` (a view model) or guards it.
///
/// Reads come from `ReadableStore` (`state`, `version`, `sinkState`,
/// `sinkActivity`, `derived`, `changes`, `activities`, `task`), as for every
/// store shape; `commit` and `send` are added here.
public protocol StoreComponentType: ReadableStore, Sendable {
  /// The state of the store, usually a nested `struct State`; otherwise
  /// inferred from `store`. (The `Never` default is never used: it only
  /// lets the compiler infer `State` from `store`.)
  associatedtype State = Never
  /// The store's one-off events; `Never` when there are none.
  associatedtype Activity: Sendable = Never

  /// The owned store.
  var store: Store<State, Activity> { get }
}

extension StoreComponentType {
  /// The store type a component declares, as in Verge:
  /// `let store: DefaultStore = .init(initialState: .init())`.
  public typealias DefaultStore = Store<State, Activity>

  /// The whole of the owned store.
  @inlinable
  public var storeView: StoreView<State, Activity> { StoreView(store) }

  /// Changes the store's state; see `Store.commit`.
  ///
  /// Compiled in the component's module for its state, as `Store.commit`
  /// is: through this protocol's extension unspecialized, a commit looked
  /// up the engine's types at run time, about 4,300 instructions more.
  @inlinable @inline(__always) @discardableResult
  public func commit<Result, Failure: Error>(
    _ name: String = "",
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    _ body: (InoutRef<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try store.commit(name, file: file, function: function, line: line, body)
  }

  /// Sends an activity; see `Store.send`.
  @inlinable
  public func send(_ activity: Activity) {
    store.send(activity)
  }

  /// Installs a commit middleware on the owned store; see
  /// `Store.add(middleware:)`.
  ///
  /// - Parameter middleware: The hook to run after the existing ones.
  public func add(middleware: CommitMiddleware<State>) {
    store.add(middleware: middleware)
  }
}

/// Verge 13's name for ``StoreComponentType``, so that a view model declared
/// `final class ViewModel: StoreDriverType` compiles unchanged. It is the same
/// protocol, not a second one; Verge's `scope` (a driver over part of a
/// store's state) has no counterpart here: scope the store instead.
public typealias StoreDriverType = StoreComponentType
