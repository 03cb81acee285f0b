@_spi(Internal) import Verge
/// Reads and writes one part of a core store's state, holding the store
/// strongly. Engines work through it, so a root store and a scoped store
/// run the same code.
protocol FragmentAccess<Fragment>: Sendable {
  associatedtype Fragment: Equatable & Sendable

  func read() -> Fragment
  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result
  func derived() -> Derived<Fragment>
}

/// The whole state of a store.
struct StoreAccess<State: Equatable & Sendable, Activity: Sendable>: FragmentAccess {
  let store: Store<State, Activity>

  func read() -> State { store.untrackedState }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout State) -> Result) -> Result {
    store.commit(trace: trace()) { ref in
      ref.modify { body(&$0) }
    }
  }

  func derived() -> Derived<State> {
    store.derived(.map { $0 })
  }
}

/// A part of a store's state at a key path.
struct KeyPathAccess<Root: Equatable & Sendable, Activity: Sendable, Fragment: Equatable & Sendable>: FragmentAccess {
  let store: Store<Root, Activity>
  let keyPath: SendableWritableKeyPath<Root, Fragment>

  func read() -> Fragment { store.untrackedState[keyPath: keyPath.value] }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result {
    store.commit(trace: trace()) { ref in
      ref.modify { body(&$0[keyPath: keyPath.value]) }
    }
  }

  func derived() -> Derived<Fragment> {
    let keyPath = keyPath
    return store.derived(.map { $0[keyPath: keyPath.value] })
  }
}

/// Where a scoped store's fragment lives, holding the store weakly.
protocol ScopeAnchor<Fragment>: Sendable {
  associatedtype Fragment: Equatable & Sendable

  /// A strong access for one operation, or `parentReleased`.
  func pin() throws(NeueError) -> any FragmentAccess<Fragment>
  /// Sends `activity` to the root store's activity subscribers when it is of
  /// the root store's activity type; returns `false` when it is not (a
  /// released root drops it and returns `true`).
  func sendActivity(_ activity: any Sendable) -> Bool
  /// The name of the root store's activity type, for error messages.
  var activityTypeName: String { get }
  /// The anchor of a part of this fragment.
  func appending<Child: Equatable & Sendable>(_ keyPath: SendableWritableKeyPath<Fragment, Child>) -> any ScopeAnchor<Child>
}

struct WeakKeyPathAnchor<Root: Equatable & Sendable, Activity: Sendable, Fragment: Equatable & Sendable>: ScopeAnchor {
  weak var store: Store<Root, Activity>?
  let keyPath: SendableWritableKeyPath<Root, Fragment>

  func pin() throws(NeueError) -> any FragmentAccess<Fragment> {
    guard let store else { throw .parentReleased }
    return KeyPathAccess(store: store, keyPath: keyPath)
  }

  func appending<Child: Equatable & Sendable>(_ child: SendableWritableKeyPath<Fragment, Child>) -> any ScopeAnchor<Child> {
    WeakKeyPathAnchor<Root, Activity, Child>(store: store, keyPath: keyPath.appending(child))
  }

  func sendActivity(_ activity: any Sendable) -> Bool {
    guard let typed = activity as? Activity else { return false }
    store?.send(typed)
    return true
  }

  var activityTypeName: String { "\(Activity.self)" }

}

/// Where an engine finds its state: a store it holds (a root store), or an
/// anchor into a parent it does not keep alive (a scoped store).
enum FragmentSource<Fragment: Equatable & Sendable>: Sendable {
  case strong(any FragmentAccess<Fragment>)
  case anchored(any ScopeAnchor<Fragment>)

  /// A strong access for one operation; `nil` once a scoped store's parent
  /// is gone.
  func pin() -> (any FragmentAccess<Fragment>)? {
    switch self {
    case .strong(let access): return access
    case .anchored(let anchor): return try? anchor.pin()
    }
  }
}
