import Verge

/// A scope's part with some dependencies overridden: what its reducer
/// commits runs with `values` in effect, its root reports `values` as its
/// dependencies (so engines and async work take them), and the anchors and
/// sources cut from it keep them (so further scopes inherit them).
struct DependencyAnchor<Fragment: Equatable & Sendable>: ScopeAnchor {
  let base: any ScopeAnchor<Fragment>
  let values: DependencyValues

  init(base: any ScopeAnchor<Fragment>, values: DependencyValues) {
    // An override of an override: one layer, with the later values.
    if let layered = base as? DependencyAnchor<Fragment> {
      self.base = layered.base
    } else {
      self.base = base
    }
    self.values = values
  }

  var root: any ScopeRoot { DependencyRoot(base: base.root, values: values) }

  func read() -> Fragment { base.read() }

  func derived() -> Derived<Fragment> { base.derived() }

  func write<Result>(_ trace: @autoclosure () -> CommitTrace, _ body: (inout Fragment) -> Result) -> Result {
    let values = values
    return base.write(trace()) { state in DependencyValues.withValues(values) { body(&state) } }
  }

  func commit(_ mutation: ReducerMutation<Fragment>) {
    let values = values
    base.commit(
      ReducerMutation(mutation.givenName, file: mutation.file, function: mutation.function, line: mutation.line) {
        state in DependencyValues.withValues(values) { mutation.body(&state) }
      })
  }

  func reduce<Feature: ActionReducer>(
    _ action: Feature.Action, by engine: ActionEngine<Feature>, trace: @autoclosure () -> CommitTrace
  ) -> Effect<Feature.Action, Feature.Activity>? where Feature.State == Fragment {
    // The engine's feature carries the values (see `ScopedActionStore`'s
    // initializer); the root's pipeline must still see the change.
    base.reduce(action, by: engine, trace: trace())
  }

  func focus<Child: Equatable & Sendable>(_ get: @escaping @Sendable (Fragment) -> Child) -> any ScopeSource<Child> {
    DependencySource(base: base.focus(get), values: values)
  }

  func appending<Child: Equatable & Sendable>(_ field: StateField<Fragment, Child>) -> any ScopeAnchor<Child> {
    DependencyAnchor<Child>(base: base.appending(field), values: values)
  }
}

/// A read-only part cut from a `DependencyAnchor`: it reports the same
/// values.
struct DependencySource<Fragment: Equatable & Sendable>: ScopeSource {
  let base: any ScopeSource<Fragment>
  let values: DependencyValues

  var root: any ScopeRoot { DependencyRoot(base: base.root, values: values) }

  func read() -> Fragment { base.read() }

  func derived() -> Derived<Fragment> { base.derived() }

  func focus<Child: Equatable & Sendable>(_ get: @escaping @Sendable (Fragment) -> Child) -> any ScopeSource<Child> {
    DependencySource<Child>(base: base.focus(get), values: values)
  }
}

/// A root store as a scope with overridden dependencies sees it: the same
/// store, with those values.
struct DependencyRoot: ScopeRoot {
  let base: any ScopeRoot
  let values: DependencyValues

  var version: UInt64 { base.version }
  var dependencies: DependencyValues { values }
  var announce: (@Sendable (ActionInfo) async throws -> Void)? { base.announce }

  func sendActivity(_ activity: any Sendable) -> Bool { base.sendActivity(activity) }

  func accepts<A>(_ type: A.Type) -> Bool { base.accepts(type) }

  func sinkActivity<A: Sendable>(
    queue: DeliveryQueue, isolation: isolated (any Actor)?, _ receive: @escaping (A) -> Void
  ) -> StoreSubscription {
    base.sinkActivity(queue: queue, isolation: isolation, receive)
  }

  func activities<A: Sendable>(bufferingPolicy: AsyncStream<A>.Continuation.BufferingPolicy) -> AsyncStream<A> {
    base.activities(bufferingPolicy: bufferingPolicy)
  }
}

extension ScopeSource {
  /// The values a scope overrode for this part; `nil` when it reads its
  /// root's.
  var dependencyOverride: DependencyValues? {
    (root as? DependencyRoot)?.values
  }
}
