import Dispatch
import Synchronization

/// The engine under `Store` and `Derived`: one value behind a lock, an
/// ordered queue of events, and a delivery loop that hands each event to the
/// subscribers that existed when it happened.
///
/// Guarantees:
/// - Events are appended under the storage lock, so their order is commit order.
/// - One thread at a time delivers (the holder of `delivery`), in queue order,
///   so a subscriber never runs concurrently with itself and never sees an
///   older value after a newer one.
/// - A thread that is not inside any delivery blocks until the queue it
///   appended to is drained, so its deliveries happen before `commit` returns.
///   A thread that is already delivering (re-entrant commits, derived values
///   updating inside their source's delivery, cross-store commits) never
///   blocks: it leaves its events to the current deliverer. That is what makes
///   re-entrancy deadlock-free.
/// - A thread inside a commit closure (of any core) neither blocks for a
///   delivery nor delivers: it holds that core's lock, which the deliverer
///   may be waiting for, and a subscriber may use that core. Its events wait
///   until its outermost commit closure has ended (`ThreadMarks`).
/// - Subscriber closures never run under any storage lock.
@usableFromInline
final class StateCore<Value: Sendable, Activity: Sendable>: DependencyCarrier, @unchecked Sendable {
  // Sendable as before: every stored property is a `let` of a Sendable
  // type (locks, atomics), and so is the superclass's one property.
  @usableFromInline typealias Subscriber = CoreSubscriber<Value, Activity>

  /// Events in commit order. The first one sits in its own slot: most
  /// deliveries carry one event, and a slot is emptied with specialized code
  /// where an array would go through the run time.
  @usableFromInline
  struct EventQueue: Sendable {
    @usableFromInline var head: Event?
    @usableFromInline var tail: [Event] = []
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool {
      if case .none = head { return true }
      return false
    }

    @inlinable
    mutating func append(_ event: Event) {
      count += 1
      if case .none = head {
        head = event
      } else {
        tail.append(event)
      }
    }

    @inlinable
    mutating func removeAll() {
      count = 0
      head = nil
      if !tail.isEmpty { tail.removeAll(keepingCapacity: true) }
    }
  }

  /// A queued event. Changes are boxed (`ChangeBox`), so an event is a few
  /// words whatever the size of the state.
  @usableFromInline
  enum Event: Sendable {
    case change(sequence: UInt64, ChangeBox<Value>)
    /// The value current at a subscriber's registration, its first delivery.
    case first(Subscriber, ChangeBox<Value>)
    case activity(sequence: UInt64, Activity)
  }

  @usableFromInline
  struct Storage: Sendable {
    @usableFromInline var value: Value
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var subscribers: [Subscriber] = []
    /// Subscribers that receive `Changes` and so are promised the previous value.
    @usableFromInline var changeSubscribers = 0 {
      didSet { keepsPrevious = changeSubscribers > 0 || hasMiddlewares }
    }
    /// Subscribers of any kind that receive values (`Changes` or plain values).
    @usableFromInline var valueSubscribers = 0
    @usableFromInline var activitySubscribers = 0
    @usableFromInline var pending = EventQueue()
    @usableFromInline var retained: [StoreSubscription] = []
    /// The last `publish` (the value before it and after it), for a derived
    /// value's `state`; stores never publish, so for them it stays `nil`.
    @usableFromInline var lastPublished: ChangeBox<Value>?
    /// Set once the source this core follows has gone away (`end()`): no
    /// subscriber is kept after that.
    @usableFromInline var ended = false
    /// Hooks run inside every commit that writes; `add(middleware:)`
    /// appends. Kept in the locked storage rather than in a `var` of the
    /// core: a class's `var` read by code inlined into another module pays
    /// a dynamic exclusivity check (`swift_beginAccess`, about 40
    /// instructions) on every commit.
    @usableFromInline var middlewares: [CommitMiddleware<Value>]
    /// `!middlewares.isEmpty`.
    @usableFromInline var hasMiddlewares: Bool {
      didSet { keepsPrevious = changeSubscribers > 0 || hasMiddlewares }
    }
    /// Whether a commit keeps the previous value (for `Changes`
    /// subscribers or middlewares): kept up to date by the two fields it
    /// depends on, so that every commit reads it with one load.
    @usableFromInline private(set) var keepsPrevious: Bool
    @usableFromInline
    init(value: Value, middlewares: [CommitMiddleware<Value>]) {
      self.value = value
      self.middlewares = middlewares
      hasMiddlewares = !middlewares.isEmpty
      keepsPrevious = hasMiddlewares
    }

    /// Moves the value out of `value`, leaving it uninitialized.
    @usableFromInline
    init(movingFrom value: UnsafeMutablePointer<Value>, middlewares: [CommitMiddleware<Value>]) {
      self.value = value.move()
      self.middlewares = middlewares
      hasMiddlewares = !middlewares.isEmpty
      keepsPrevious = hasMiddlewares
    }
  }

  /// Locked by `withStorage` in the name of the calling thread, so that a
  /// re-entrant use is reported instead of deadlocking.
  @usableFromInline let storage: LockedBox<Storage>
  /// Set when a cancellation could not take the lock (it came from inside a commit).
  @usableFromInline let needsPurge = Atomic<Bool>(false)
  /// Held by the delivering thread; its value is a spare event buffer so that
  /// steady-state delivery allocates nothing.
  @usableFromInline let delivery = LockedBox(EventQueue())
  /// Set by a thread that queued events and may not wait for the delivering
  /// thread: that thread re-checks the queue after releasing `delivery`.
  @usableFromInline let handedOff = Atomic<Bool>(false)
  /// How many events are queued; lets the delivering thread see that the
  /// queue is empty without taking the lock again.
  @usableFromInline let queued = Atomic<Int>(0)
  /// The value of `storage.sequence` at the last change of the value
  /// (activities do not count), written under the storage lock and readable
  /// without it: equal readings mean the value has not changed in between.
  @usableFromInline let changeCounter = ChangeCounter()
  /// Mirrors `valueSubscribers > 0` for the commit's fast-path decision.
  @usableFromInline let hasValueSubscribers = Atomic<Bool>(false)
  /// The one subscriber that updates every value derived from this core;
  /// made with the first derived value.
  @usableFromInline let hubSlot = LockedBox<DerivedHub<Value>?>(nil)
  @usableFromInline let isEqual: @Sendable (Value, Value) -> Bool
  /// `ThreadIdentity.marksKey`, read once: a commit reads it without
  /// checking that the lazy global was made.
  @usableFromInline let marksKey = ThreadIdentity.marksKey

  @usableFromInline
  init(
    _ value: Value,
    isEqual: @escaping @Sendable (Value, Value) -> Bool,
    middlewares: [CommitMiddleware<Value>] = [],
    dependencies: DependencyValues? = nil
  ) {
    storage = LockedBox(Storage(value: value, middlewares: middlewares))
    self.isEqual = isEqual
    super.init(dependencies: dependencies)
  }

  /// A core holding the value moved out of `value`, which is left
  /// uninitialized: a store's initial state, handed over on the heap, so
  /// that making a store copies a large state onto the stack once at most
  /// (here, unspecialized, where the copy's slot is reserved only while
  /// it is made).
  @usableFromInline
  init(
    movingFrom value: UnsafeMutablePointer<Value>,
    isEqual: @escaping @Sendable (Value, Value) -> Bool,
    middlewares: [CommitMiddleware<Value>],
    dependencies: DependencyValues? = nil
  ) {
    storage = LockedBox(Storage(movingFrom: value, middlewares: middlewares))
    self.isEqual = isEqual
    super.init(dependencies: dependencies)
  }

  /// Appends a commit middleware; it sees every commit from the next one on.
  ///
  /// - Parameter middleware: The hook to add after the existing ones.
  func add(middleware: CommitMiddleware<Value>) {
    withStorage("add(middleware:)") { storage in
      storage.middlewares.append(middleware)
      storage.hasMiddlewares = true
    }
  }

  deinit {
    LockOrder.forget(UInt(bitPattern: ObjectIdentifier(self)))
    let subscribers = storage.withLock { $0.subscribers }
    for subscriber in subscribers {
      subscriber.terminate()
    }
  }


  /// Runs `body` under the storage lock, trapping with a clear message when
  /// the calling thread already holds it, or when taking it inside another
  /// core's commit closure reverses an order of nesting (`LockOrder`):
  /// either could deadlock.
  @inlinable @inline(__always)
  func withStorage<Result, Failure: Error>(
    _ operation: StaticString = #function,
    _ body: (inout Storage) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let marks = ThreadIdentity.marks(key: marksKey)
    if let outer = marks.pointee.closureCore {
      LockOrder.takeNested(self, insideClosureOf: outer)
    }
    return try withStorage(as: marks, operation, body)
  }

  /// `withStorage(_:_:)` for the thread whose marks the caller already has,
  /// which has checked the order of nesting (`LockOrder`) when it is inside
  /// a commit closure.
  @inlinable @inline(__always)
  func withStorage<Result, Failure: Error>(
    as marks: UnsafeMutablePointer<ThreadMarks>,
    _ operation: StaticString,
    _ body: (inout Storage) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    // The thread's identity is the address of its marks (`ThreadIdentity.current`).
    storage.lock(as: UInt(bitPattern: marks), reportingReentrantUseAs: operation)
    defer { storage.unlock() }
    if needsPurge.load(ordering: .relaxed) {
      purgeCancelled(&storage.value)
      needsPurge.store(false, ordering: .relaxed)
    }
    return try body(&storage.value)
  }

  /// Whether the calling thread is inside `withStorage` (a commit closure,
  /// for instance).
  var isLockedByCurrentThread: Bool {
    storage.holder == ThreadIdentity.current
  }

  /// How many subscribers receive values (for tests).
  var valueSubscriberCount: Int {
    storage.withLock { $0.valueSubscribers }
  }

  @inlinable
  var value: Value {
    withStorage("state") { $0.value }
  }

  /// Initializes `place` with a copy of the value, made in place under the
  /// lock: unlike `value`, no copy of it is held on the stack.
  @inlinable
  func copyValue(to place: UnsafeMutablePointer<Value>) {
    withStorage("state") { place.initialize(from: &$0.value, count: 1) }
  }

  /// The value and the `changeCount` it belongs to, read under the lock.
  @inlinable
  func countedValue() -> (Value, UInt64) {
    withStorage("state") { ($0.value, changeCounter.current) }
  }
}
