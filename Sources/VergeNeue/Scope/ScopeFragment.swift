import Verge

/// What a scoped store reads: its part of the root store's state, as
/// `ReadableStore` needs it. The part is followed through one derived value
/// of the root, made on first use and shared by every `sinkState`,
/// `derived` and `changes` of the scope; until then the scope costs the
/// root nothing per commit.
@usableFromInline
final class ScopeFragment<Fragment: Equatable & Sendable, Activity: Sendable>: StoreFragment {
  let source: any ScopeSource<Fragment>
  /// The scope's own async work, cancelled when the scope goes away.
  @usableFromInline let taskManager = TaskManager()
  private let follower = SharedLock<Derived<Fragment>?>(nil)

  init(source: any ScopeSource<Fragment>) {
    self.source = source
  }

  @usableFromInline var value: Fragment { source.read() }

  @usableFromInline var version: UInt64 { source.root.version }

  @usableFromInline var dependencies: DependencyValues { source.root.dependencies }

  /// Whether the derived value has been made (so the root is followed).
  var isFollowing: Bool { follower.withLock { $0 != nil } }

  @usableFromInline var followed: Derived<Fragment> {
    if let existing = follower.withLock({ $0 }) { return existing }
    let made = source.derived()
    return follower.withLock { cached in
      if let cached { return cached }
      cached = made
      return made
    }
  }

  @usableFromInline func sinkActivity(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (Activity) -> Void
  ) -> StoreSubscription {
    source.root.sinkActivity(queue: queue, isolation: isolation, receive)
  }

  @usableFromInline func activities(
    bufferingPolicy: AsyncStream<Activity>.Continuation.BufferingPolicy
  ) -> AsyncStream<Activity> {
    source.root.activities(bufferingPolicy: bufferingPolicy)
  }
}
