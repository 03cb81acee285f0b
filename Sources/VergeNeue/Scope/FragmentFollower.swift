@_spi(Internal) import Verge

/// A scoped store's subscription to its fragment: one derived value of the
/// parent, made on first use and shared by every `sinkState` and `derived`
/// of that scoped store. Until then the scoped store costs the parent
/// nothing.
final class FragmentFollower<Fragment: Equatable & Sendable>: Sendable {
  private let fragment = SharedLock<Derived<Fragment>?>(nil)

  /// Whether the derived value has been made (so the parent is followed).
  var isFollowing: Bool { fragment.withLock { $0 != nil } }

  /// The fragment as a derived value of the parent, made on first use.
  func follow(_ anchor: any ScopeAnchor<Fragment>) -> Derived<Fragment> {
    if let existing = fragment.withLock({ $0 }) { return existing }
    let made = anchor.derived()
    return fragment.withLock { cached in
      if let cached { return cached }
      cached = made
      return made
    }
  }
}
