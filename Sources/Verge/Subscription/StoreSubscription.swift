
/// Verge's name for a subscription token, so that code written for Verge
/// (`Set<VergeAnyCancellable>`, `var cancellable: VergeAnyCancellable?`)
/// compiles unchanged. It is `StoreSubscription` itself, not a second type.
public typealias VergeAnyCancellable = StoreSubscription

/// Verge's name for the token `sinkState` returns
/// (`var subscription: StoreStateSubscription?`); `StoreSubscription` itself.
public typealias StoreStateSubscription = StoreSubscription

/// A token for a subscription; cancelling it or letting it go ends the
/// subscription.
///
/// Keep it somewhere whose lifetime matches what you want:
///
/// ```swift
/// store.sinkState { changes in render(changes) }
///   .storeWhileSourceActive()           // as long as the store lives
/// derived.sinkState { _ in }.store(in: &subscriptions)  // as long as the set
/// ```
///
/// A token released without either of those cancels the subscription at once.
public final class StoreSubscription: Sendable, Hashable {
  private struct Actions {
    var cancel: (@Sendable () -> Void)?
    var retainInSource: (@Sendable (StoreSubscription) -> Bool)?
    /// Whether the source still delivers to this subscription.
    var isLive: (@Sendable () -> Bool)?
  }

  private let actions: LockedBox<Actions>

  @usableFromInline
  init(
    cancel: @escaping @Sendable () -> Void,
    retainInSource: @escaping @Sendable (StoreSubscription) -> Bool,
    isLive: (@Sendable () -> Bool)? = nil
  ) {
    actions = LockedBox(Actions(cancel: cancel, retainInSource: retainInSource, isLive: isLive))
  }

  deinit {
    cancel()
  }

  /// Whether the subscription has ended: `cancel()` ran, or the source
  /// (the store, or the store a derived value comes from) went away.
  public var isCancelled: Bool {
    let (cancelled, isLive) = actions.withLock { ($0.cancel == nil, $0.isLive) }
    return cancelled || isLive?() == false
  }

  /// Ends the subscription. No delivery starts after this returns; calling it
  /// again does nothing.
  public func cancel() {
    let action = actions.withLock { actions in
      defer { actions = Actions() }
      return actions.cancel
    }
    action?()
  }

  /// Hands the token to its source (the store or derived value it came from),
  /// which keeps it until the source itself goes away.
  ///
  /// If the source is already gone, the subscription is cancelled.
  ///
  /// - Returns: This token, as Verge returns it; there is no need to keep it.
  @discardableResult
  public func storeWhileSourceActive() -> StoreSubscription {
    let retain = actions.withLock { $0.retainInSource }
    if retain?(self) != true {
      cancel()
    }
    return self
  }

  /// Keeps the token in `set`; it is cancelled when removed from the set and
  /// released, or when the set itself goes away.
  ///
  /// - Parameter set: The set to insert the token into.
  public func store(in set: inout Set<StoreSubscription>) {
    set.insert(self)
  }

  /// Identity: two tokens are equal only when they are the same token.
  public static func == (lhs: StoreSubscription, rhs: StoreSubscription) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
