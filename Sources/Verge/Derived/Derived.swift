import Synchronization

/// A value computed from a store (or from other derived values) that follows
/// its source and publishes only when it changes.
///
/// ```swift
/// let count: Derived<Int> = store.derived(.select(\.count))
/// let label: Derived<String> = count.derived(.map { "\($0) items" })
/// label.sinkState { changes in print(changes.current) }.storeWhileSourceActive()
/// print(label.value)
/// ```
///
/// - A derived value does not keep its store alive; when the store goes
///   away, `value` keeps the last value and every subscription to it (and
///   to values derived from it) ends: handlers are released and async
///   sequences finish. A chained derived value keeps the derived values it
///   was made from alive.
/// - Its source does not keep it alive either: release it and it stops
///   being computed. A subscription keeps it alive, so
///   `store.derived(.map { ... }).sinkState { ... }.storeWhileSourceActive()`
///   keeps delivering for as long as the store lives.
/// - It is updated inside its source's delivery, so its subscribers see its
///   changes in the source's commit order.
/// - Complexity: A commit that does not change what a derived value reads
///   costs it one read and one comparison, and allocates nothing.
public final class Derived<Value: Sendable>: Sendable {
  @usableFromInline let core: StateCore<Value, Never>
  private let upstream = LockedBox<[StoreSubscription]>([])
  /// Sources kept alive by this value (derived values it was made from).
  private let retainedSources: [any Sendable]

  @usableFromInline
  init(
    _ initial: Value,
    areEqual: @escaping @Sendable (Value, Value) -> Bool,
    retaining sources: [any Sendable]
  ) {
    core = StateCore(initial, isEqual: areEqual)
    retainedSources = sources
  }

  /// A derived value that never changes.
  ///
  /// - Parameter value: The value.
  public convenience init(constant value: Value) {
    self.init(value, areEqual: { _, _ in true }, retaining: [])
  }

  deinit {
    for subscription in upstream.withLock({ $0 }) {
      subscription.cancel()
    }
  }

  /// The current value.
  public var value: Value {
    core.value
  }

  /// Verge's name for ``value``, the current value without its previous one.
  public var primitiveValue: Value {
    core.value
  }

  /// The current value and the one it replaced, as a subscriber would
  /// receive them: `state.current`, `state.previous` (`nil` before the
  /// first change) and `state.ifChanged`.
  public var state: Changes<Value> {
    core.withStorage("state") { storage in
      storage.lastPublished?.changes
        ?? Changes(previous: nil, current: storage.value, version: core.changeCounter.current)
    }
  }

  /// A number that grows with every change of the value; two equal
  /// readings mean the value did not change in between.
  ///
  /// - Complexity: O(1), read without the lock.
  public var version: UInt64 {
    core.changeCounter.current
  }

  /// Subscribes to the value: `receive` gets the current value at once
  /// (unless `dropsFirst`), then each change, with the same ordering
  /// guarantees as `Store.sinkState`.
  ///
  /// Isolation works as for `Store.sinkState`: from main-actor code
  /// `receive` runs on the main actor, in order.
  ///
  /// - Parameters:
  ///   - dropsFirst: Skip the delivery of the current value.
  ///   - queue: Where to call `receive` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - receive: Gets each change; `previous` is `nil` on the first delivery.
  /// - Returns: The subscription's token. It keeps this derived value alive
  ///   until it ends; `storeWhileSourceActive()` ties it to the life of the
  ///   store the value comes from.
  public func sinkState(
    dropsFirst: Bool = false,
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ receive: @escaping (Changes<Value>) -> Void
  ) -> StoreSubscription {
    IsolatedReceiver.subscribe(receive, isolation: isolation) { deliver in
      // The handler holds this derived value, so the subscription keeps it
      // alive until the subscription is cancelled or its store goes away
      // (both drop the subscriber, which breaks the cycle). Held as an
      // `AnyObject`: this function is not specialized, and keeping a
      // `Derived<Value>` alive looked up its type on every delivery.
      let owner: any AnyObject & Sendable = self
      let receiveKeepingAlive: @Sendable (Changes<Value>) -> Void = { changes in
        withExtendedLifetime(owner) { deliver(changes) }
      }
      return core.subscribe(.changes(receiveKeepingAlive), dropsFirst: dropsFirst, queue: queue)
    }
  }

  /// A value derived from this one.
  ///
  /// - Parameter pipeline: How to compute it.
  /// - Returns: The new derived value; it keeps this one alive.
  @inlinable
  public func derived<Output>(_ pipeline: Pipeline<Value, Output>) -> Derived<Output> {
    core.derived(pipeline, retaining: [self])
  }

  /// Combines this value with others into a tuple that updates when any of
  /// them publishes, holding each one's latest value.
  ///
  /// ```swift
  /// let both: Derived<(Int, String)> = count.combined(with: title)
  /// ```
  ///
  /// Values derived from one store update one after another within a
  /// commit's delivery, so the tuple may pass through a state where one
  /// element is already new and the next not yet. To read several parts of
  /// one store atomically, derive them together instead
  /// (`store.derived(.map(\.a, \.b) { ($0, $1) })` with an `Equatable` output).
  ///
  /// - Parameter others: The values to combine with this one.
  /// - Returns: The combined value; it keeps all its sources alive.
  public func combined<each Other: Sendable>(
    with others: repeat Derived<each Other>
  ) -> Derived<(Value, repeat each Other)> {
    let read: @Sendable () -> (Value, repeat each Other) = { [self] in
      (self.value, repeat (each others).value)
    }
    var sources: [any Sendable] = [self]
    for other in repeat each others { sources.append(other) }
    let combined = Derived<(Value, repeat each Other)>(
      read(), areEqual: { _, _ in false }, retaining: sources)
    let update: @Sendable () -> Void = { [weak combined] in
      combined?.core.publish(computing: read)
    }
    // When any source ends (its store went away), so does the combination.
    let end: @Sendable () -> Void = { [weak combined] in combined?.core.end() }
    var subscriptions = [
      core.subscribe(
        .values { _ in update() }, dropsFirst: true, queue: .committingThread, onTerminate: end
      )
    ]
    for other in repeat each others {
      subscriptions.append(
        other.core.subscribe(
          .values { _ in update() }, dropsFirst: true, queue: .committingThread, onTerminate: end
        ))
    }
    combined.follow(subscriptions)
    // A source may have changed between reading and subscribing.
    update()
    return combined
  }

  @usableFromInline
  func follow(_ subscriptions: [StoreSubscription]) {
    upstream.withLock { $0.append(contentsOf: subscriptions) }
  }
}

extension StateCore {
  /// Makes a derived value that follows this core through `pipeline`.
  ///
  /// Every value derived from one core is updated by that core's single
  /// `DerivedHub` subscriber, which loops over them; the derived value starts
  /// from the value current at registration, under the same lock, so no
  /// commit is missed or seen twice.
  @inlinable
  func derived<Output>(
    _ pipeline: Pipeline<Value, Output>, retaining sources: [any Sendable]
  ) -> Derived<Output> {
    let entry = pipeline.makeEntry()
    let hub = derivedHub()
    return withStorage("derived") { storage in
      let derived = Derived(
        withUnsafePointer(to: &storage.value) { entry.start($0) }, areEqual: pipeline.areEqual, retaining: sources)
      // The entry holds the derived value's core, not the derived value: the
      // derived value marks the entry dead when it goes away. (A weak reference
      // here would put every update on the slow reference-counting path.)
      entry.target = derived.core
      entry.startSequence.store(storage.sequence, ordering: .relaxed)
      hub.add(entry)
      derived.follow([
        StoreSubscription(cancel: { hub.remove(entry) }, retainInSource: { _ in false })
      ])
      return derived
    }
  }

  /// This core's hub, made and subscribed on first use.
  @inlinable
  func derivedHub() -> DerivedHub<Value> {
    hubSlot.withLock { slot in
      if let hub = slot { return hub }
      let hub = DerivedHub<Value>()
      let subscription = subscribe(
        .sequencedValues { sequence, value in hub.update(sequence, value) },
        dropsFirst: true, queue: .committingThread,
        onTerminate: { hub.sourceEnded() })
      hub.hold(subscription)
      slot = hub
      return hub
    }
  }
}

/// One derived value's update in its source's hub, and whether its derived
/// value still exists.
///
/// The kinds of pipeline subclass it (`PipelineEntry`); `update` is their
/// specialized function, called with the entry itself and the address of
/// the source's state. Not generic, nor are the hub's entries: a hub reached
/// from code that is not specialized for the state (a reducer store, a
/// scope) then loops over them with no type metadata to look up per
/// delivery.
@usableFromInline
class DerivedHubEntry {
  /// Runs the entry with a new state, at the address given. A function
  /// without context: the entry is its first argument.
  @usableFromInline let update: (DerivedHubEntry, UnsafeRawPointer) -> Void
  /// Events with a sequence number above this happened after registration;
  /// set before the entry joins its hub. `UInt64.max` once the derived value
  /// has gone away (`isDead`): the hub then skips the entry with the same
  /// one comparison, and the entry stays one allocation size class smaller.
  @usableFromInline let startSequence = Atomic<UInt64>(0)

  /// Whether the derived value has gone away.
  @inlinable
  final var isDead: Bool {
    startSequence.load(ordering: .acquiring) == .max
  }

  @inlinable
  init(update: @escaping (DerivedHubEntry, UnsafeRawPointer) -> Void) {
    self.update = update
  }

  /// The source went away: end the derived value's subscriptions.
  @usableFromInline
  func sourceEnded() {}
}

/// A hub's entries, under its lock.
@usableFromInline
struct DerivedHubEntries: Sendable {
  @usableFromInline var all: ContiguousArray<DerivedHubEntry> = []
  @usableFromInline var dead = 0
  @usableFromInline var subscription: StoreSubscription?

  @usableFromInline
  init() {}
}

/// Updates every value derived from one source, in one loop, inside the
/// source's delivery.
@usableFromInline
final class DerivedHub<State: Sendable>: Sendable {
  @usableFromInline typealias Entry = DerivedHubEntry

  @usableFromInline let entries = LockedBox(DerivedHubEntries())

  @usableFromInline
  init() {}

  @usableFromInline
  func hold(_ subscription: StoreSubscription) {
    entries.withLock { $0.subscription = subscription }
  }

  @usableFromInline
  func add(_ entry: Entry) {
    entries.withLock { $0.all.append(entry) }
  }

  @usableFromInline
  func remove(_ entry: Entry) {
    entry.startSequence.store(.max, ordering: .releasing)
    entries.withLock { $0.dead += 1 }
  }

  /// The source went away: every derived value it fed ends its
  /// subscriptions, which ends theirs in turn.
  @usableFromInline
  func sourceEnded() {
    let all = entries.withLock { entries -> ContiguousArray<Entry> in
      defer { entries.all = [] }
      return entries.all
    }
    for entry in all where !entry.isDead {
      entry.sourceEnded()
    }
  }

  /// Runs every live entry registered before event `sequence` with the
  /// state at `state`, read where the delivery holds it.
  @inlinable
  func update(_ sequence: UInt64, _ state: UnsafePointer<State>) {
    let all = entries.withLock { entries -> ContiguousArray<Entry> in
      if entries.dead > 0 {
        entries.all.removeAll { $0.isDead }
        entries.dead = 0
      }
      return entries.all
    }
    // `all` owns every entry for the whole loop, so the loop reads them
    // unretained: retaining and releasing each of thousands of entries
    // would cost more than updating it. With `takeUnretainedValue()` an
    // unrelated commit cost 187 instructions per derived value instead of
    // 110 (100 derived values; 182 instead of 105 with 10,000;
    // `Benchmarks/callgrind.sh --filter "derived values"`, 2026-11-28).
    all.withUnsafeBufferPointer { buffer in
      guard let base = UnsafeRawPointer(buffer.baseAddress) else { return }
      for index in buffer.indices {
        let entry = base.load(
          fromByteOffset: index &* MemoryLayout<Unmanaged<Entry>>.stride, as: Unmanaged<Entry>.self)
        entry._withUnsafeGuaranteedRef { entry in
          if entry.startSequence.load(ordering: .relaxed) < sequence {
            entry.update(entry, UnsafeRawPointer(state))
          }
        }
      }
    }
  }
}

extension Store {
  /// A value derived from the state.
  ///
  /// ```swift
  /// let count: Derived<Int> = store.derived(.select(\.count))
  /// let doubled: Derived<Int> = store.derived(.map { $0.count * 2 })
  /// ```
  ///
  /// - Parameter pipeline: How to compute it.
  /// - Returns: The derived value. It does not keep the store alive.
  @inlinable
  public func derived<Output>(_ pipeline: Pipeline<State, Output>) -> Derived<Output> {
    core.derived(pipeline, retaining: [])
  }
}
