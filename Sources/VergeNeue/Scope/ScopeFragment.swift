@_spi(Internal) import Verge

/// What a scoped store reads: its part of the root store's state, as
/// `ReadableStore` needs it. The part is followed through one derived value
/// of the root, made on first use and shared by every `sinkState`,
/// `derived` and `changes` of the scope; until then the scope costs the
/// root nothing per commit.
final class ScopeFragment<Fragment: Equatable & Sendable, Activity: Sendable>: StoreFragment {
  let anchor: any ScopeAnchor<Fragment>
  /// The scope's own async work, cancelled when the scope goes away.
  let taskManager = TaskManager()
  private let follower = SharedLock<Derived<Fragment>?>(nil)

  init(anchor: any ScopeAnchor<Fragment>) {
    self.anchor = anchor
  }

  var value: Fragment { anchor.read() }

  var version: UInt64 { anchor.version }

  /// Whether the derived value has been made (so the root is followed).
  var isFollowing: Bool { follower.withLock { $0 != nil } }

  var followed: Derived<Fragment> {
    if let existing = follower.withLock({ $0 }) { return existing }
    let made = anchor.derived()
    return follower.withLock { cached in
      if let cached { return cached }
      cached = made
      return made
    }
  }

  func sinkActivity(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (Activity) -> Void
  ) -> StoreSubscription {
    anchor.sinkActivity(queue: queue, isolation: isolation, receive)
  }

  func activities(bufferingPolicy: AsyncStream<Activity>.Continuation.BufferingPolicy) -> AsyncStream<Activity> {
    anchor.activities(bufferingPolicy: bufferingPolicy)
  }
}
