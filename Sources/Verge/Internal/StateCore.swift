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

  // MARK: - Locking

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
    storage.lock(as: ThreadIdentity.identity(of: marks), reportingReentrantUseAs: operation)
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
    storage.holder == ThreadIdentity.identity(of: ThreadIdentity.marks(key: marksKey))
  }

  /// How many subscribers receive values (for tests).
  var valueSubscriberCount: Int {
    storage.withLock { $0.valueSubscribers }
  }

  @inlinable
  var value: Value {
    withStorage("state") { $0.value }
  }

  /// The value and the `changeCount` it belongs to, read under the lock.
  @inlinable
  func countedValue() -> (Value, UInt64) {
    withStorage("state") { ($0.value, changeCounter.current) }
  }

  // MARK: - Writing

  /// Mutates the value in place; see `Store.commit` for the contract.
  ///
  /// Always inlined: with no subscriber this is the plain locked commit,
  /// a few dozen instructions once specialized in the caller.
  @inlinable @inline(__always)
  func commit<Result, Failure: Error>(
    trace: @autoclosure () -> CommitTrace,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var countAfter: UInt64 = 0
    return try commit(trace: trace(), countAfter: &countAfter, body)
  }

  /// `commit(trace:_:)` that also sets `countAfter` to `changeCount` as it
  /// stood right after this commit, read under the lock.
  ///
  /// With subscribers, the committing thread first tries to become the
  /// delivering thread, so that when nothing is queued the change goes
  /// straight to the subscribers without a trip through the queue. Only the
  /// locked part is inlined here; delivering (`deliverDirect`) is one
  /// function per state type.
  ///
  /// The closure runs marked in the thread's `ThreadMarks`: what it commits
  /// to other cores is delivered once the outermost closure has ended.
  @inlinable @inline(__always)
  func commit<Result, Failure: Error>(
    trace: @autoclosure () -> CommitTrace,
    countAfter: inout UInt64,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if Self.isLarge {
      return try commitLarge(trace: trace, countAfter: &countAfter, body)
    }
    let marks = ThreadIdentity.marks(key: marksKey)
    defer { ThreadIdentity.deliverDeferred(marks: marks) }
    if let outer = marks.pointee.closureCore {
      // Nested in another core's commit closure: check the order of nesting
      // before taking the lock; never deliver directly (the events wait for
      // the outermost closure to end).
      LockOrder.takeNested(self, insideClosureOf: outer)
      return try commitThenDrain(marks: marks, trace: trace(), countAfter: &countAfter, body)
    }
    return try commitSmall(marks: marks, trace: trace(), countAfter: &countAfter, body)
  }

  /// `commit(trace:_:)` for code that runs unspecialized: VergeNeue's
  /// engines reach the store through the witness of a generic type. There
  /// every temporary of the inlined small path (`commitSmall`) takes a slot
  /// of the state's size on the stack — about seventy for one commit, 4 MiB
  /// for a 64 KiB state — so a large state goes straight to `commitLarge`
  /// and a small one through a function of its own.
  ///
  /// - Parameters:
  ///   - trace: Describes the commit to commit middlewares.
  ///   - body: Mutates the value through the `InoutRef` it receives.
  /// - Returns: What `body` returned.
  func commitOutOfLine<Result>(trace: () -> CommitTrace, _ body: (InoutRef<Value>) -> Result) -> Result {
    if Self.isLarge {
      var countAfter: UInt64 = 0
      return commitLarge(trace: trace, countAfter: &countAfter, body)
    }
    return commitSmallOutOfLine(trace: trace, body)
  }

  /// `commit(trace:_:)` in a frame of its own, for `commitOutOfLine` when
  /// the state is small.
  @inline(never)
  func commitSmallOutOfLine<Result>(trace: () -> CommitTrace, _ body: (InoutRef<Value>) -> Result) -> Result {
    commit(trace: trace(), body)
  }

  /// `commit(trace:countAfter:_:)` for a state that is not `isLarge`: its
  /// values may sit on the stack. A function of its own so that an
  /// unoptimized build does not reserve its stack for large states. Called
  /// outside any commit closure (`marks` has no `closureCore`).
  @inlinable @inline(__always)
  func commitSmall<Result, Failure: Error>(
    marks: UnsafeMutablePointer<ThreadMarks>,
    trace: @autoclosure () -> CommitTrace,
    countAfter: inout UInt64,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard mayHaveValueSubscribers, marks.pointee.word == 0, delivery.tryLock() else {
      return try commitThenDrain(marks: marks, trace: trace(), countAfter: &countAfter, body)
    }
    var direct = DirectChange()
    let result: Result
    do {
      result = try withStorage(as: marks, "commit") { (storage) throws(Failure) -> Result in
        defer { countAfter = changeCounter.current }
        let (result, changed, previous) = try ThreadIdentity.asClosure(of: self, marks: marks) {
          () throws(Failure) in try apply(&storage, trace: trace, body)
        }
        guard changed else { return result }
        countChange(&storage)
        guard storage.valueSubscribers > 0 else { return result }
        if storage.pending.isEmpty {
          direct = DirectChange(
            sequence: storage.sequence,
            previous: storage.changeSubscribers > 0 ? previous : nil,
            current: storage.value,
            subscribers: storage.subscribers)
        } else {
          enqueueChange(&storage, previous: previous)
        }
        return result
      }
    } catch {
      deliverDirect(DirectChange(), marks: marks)
      throw error
    }
    deliverDirect(direct, marks: marks)
    return result
  }

  /// A change that its committing thread delivers itself, kept as plain
  /// values: an `Event` would be copied and destroyed through its value
  /// witnesses.
  @usableFromInline
  struct DirectChange {
    @usableFromInline var sequence: UInt64
    @usableFromInline var previous: Value?
    /// `nil` when there is nothing to deliver directly.
    @usableFromInline var current: Value?
    @usableFromInline var subscribers: [Subscriber]

    @inlinable
    init(sequence: UInt64 = 0, previous: Value? = nil, current: Value? = nil, subscribers: [Subscriber] = []) {
      self.sequence = sequence
      self.previous = previous
      self.current = current
      self.subscribers = subscribers
    }
  }

  /// The rest of a commit made by the delivering thread (`delivery` held,
  /// the thread neither delivering nor in a commit closure): delivers
  /// `change`, then whatever was queued meanwhile, then releases `delivery`
  /// and takes what was handed off.
  @inlinable
  func deliverDirect(_ change: borrowing DirectChange, marks: UnsafeMutablePointer<ThreadMarks>) {
    if let current = change.current {
      marks.pointee.word &+= 1
      deliverChange(
        change.sequence, Changes(previous: change.previous, current: current, version: change.sequence),
        to: change.subscribers)
      marks.pointee.word &-= 1
    }
    if queued.load(ordering: .acquiring) > 0 {
      deliverPending(using: &delivery.value, marks: marks)
    }
    delivery.unlock()
    deliverHandedOff(marks: marks)
  }

  /// Whether anyone receives values, read without the lock (a hint: a
  /// subscriber may come or go right after).
  @inlinable
  var mayHaveValueSubscribers: Bool {
    hasValueSubscribers.load(ordering: .relaxed)
  }

  /// Mutates the value in place under the lock, then delivers what was
  /// queued; `commit` without its fast path for subscribers. Small, so that
  /// a caller that found no subscriber can have it inlined.
  @inlinable @inline(__always)
  func commitThenDrain<Result, Failure: Error>(
    marks: UnsafeMutablePointer<ThreadMarks>,
    trace: @autoclosure () -> CommitTrace,
    countAfter: inout UInt64,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var notify = false
    let result = try withStorage(as: marks, "commit") { (storage) throws(Failure) -> Result in
      // With no previous value to keep, none is formed: destroying an
      // optional state goes through the type's value witnesses when the
      // state holds optionals itself (about 80 instructions a commit).
      guard storage.keepsPrevious else {
        let (result, changed) = try ThreadIdentity.asClosure(of: self, marks: marks) {
          () throws(Failure) in try mutate(&storage, body)
        }
        if changed { notify = record(&storage, previous: nil) }
        countAfter = changeCounter.current
        return result
      }
      let (result, changed, previous) = try ThreadIdentity.asClosure(of: self, marks: marks) {
        () throws(Failure) in try apply(&storage, trace: trace, body)
      }
      if changed { notify = record(&storage, previous: previous) }
      countAfter = changeCounter.current
      return result
    }
    if notify { drain(marks: marks) }
    return result
  }

  /// Whether values are large enough to be kept off the stack: their
  /// commits take `commitLarge`, and none is delivered directly. A constant
  /// once specialized, so small states keep their path unchanged.
  @inlinable
  static var isLarge: Bool {
    MemoryLayout<Value>.size > 4096
  }

  /// `commit(trace:countAfter:_:)` for a large state: the previous value is
  /// copied to the heap, not kept on the stack, and the change is queued
  /// boxed, never delivered directly, so the commit holds at most one
  /// state-sized value on its stack (a throwing closure's draft). A
  /// function of its own, so that no caller reserves stack for the small
  /// path's temporaries when the state is large.
  @inlinable @inline(never)
  func commitLarge<Result, Failure: Error>(
    trace: () -> CommitTrace,
    countAfter: inout UInt64,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let marks = ThreadIdentity.marks(key: marksKey)
    defer { ThreadIdentity.deliverDeferred(marks: marks) }
    if let outer = marks.pointee.closureCore {
      // As in `commit(trace:countAfter:_:)`: check the order of nesting
      // before taking the lock.
      LockOrder.takeNested(self, insideClosureOf: outer)
    }
    var notify = false
    let result = try withStorage(as: marks, "commit") { (storage) throws(Failure) -> Result in
      let previous = storage.keepsPrevious ? ValueBox(copying: &storage.value) : nil
      let (result, written) = try ThreadIdentity.asClosure(of: self, marks: marks) {
        () throws(Failure) -> (Result, Bool) in
        var written = false
        let result: Result
        if Failure.self == Never.self {
          result = try withUnsafeMutablePointer(to: &written) { (written) throws(Failure) -> Result in
            try withUnsafeMutablePointer(to: &storage.value) { (value) throws(Failure) -> Result in
              try body(InoutRef(value, written: written))
            }
          }
        } else {
          // May throw: a draft on the heap, so a throw leaves the state untouched.
          let draft = UnsafeMutablePointer<Value>.allocate(capacity: 1)
          draft.initialize(from: &storage.value, count: 1)
          defer {
            draft.deinitialize(count: 1)
            draft.deallocate()
          }
          result = try withUnsafeMutablePointer(to: &written) { (written) throws(Failure) -> Result in
            try body(InoutRef(draft, written: written))
          }
          if written { swap(&storage.value, &draft.pointee) }
        }
        if written, let previous, storage.hasMiddlewares {
          let trace = trace()
          for middleware in storage.middlewares {
            middleware.body(previous.address.pointee, &storage.value, trace)
          }
        }
        return (result, written)
      }
      if written {
        countChange(&storage)
        if storage.valueSubscribers > 0 {
          let box = Self.box(
            previous: storage.changeSubscribers > 0 ? previous : nil, current: &storage.value,
            version: storage.sequence)
          enqueue(&storage, .change(sequence: storage.sequence, box))
          notify = true
        }
      }
      countAfter = changeCounter.current
      return result
    }
    if notify { drain(marks: marks) }
    return result
  }

  /// A change of a large state, boxed from where its states are.
  @inlinable @inline(never)
  static func box(previous: ValueBox<Value>?, current: UnsafePointer<Value>, version: UInt64) -> ChangeBox<Value> {
    ChangeBox(previous: previous?.address, current: current, version: version)
  }

  /// Runs a commit's closure and middlewares on the locked storage.
  ///
  /// - Returns: The closure's result, whether the value changed, and the
  ///   previous value when one was kept.
  @inlinable @inline(__always)
  func apply<Result, Failure: Error>(
    _ storage: inout Storage,
    trace: () -> CommitTrace,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> (Result, Bool, Value?) {
    let previous: Value? = storage.keepsPrevious ? storage.value : nil
    let (result, written) = try mutate(&storage, body)
    guard written else { return (result, false, previous) }
    // A write notifies even when it assigned equal values: whether a part
    // changed is decided per selection, never by comparing whole states,
    // which would cost O(size of the state) on every commit.
    if let previous, storage.hasMiddlewares {
      let trace = trace()
      for middleware in storage.middlewares {
        middleware.body(previous, &storage.value, trace)
      }
    }
    return (result, true, previous)
  }

  /// Runs a commit's closure on the locked storage: in place when it
  /// cannot throw, on a draft otherwise.
  ///
  /// - Returns: The closure's result and whether it wrote.
  @inlinable @inline(__always)
  func mutate<Result, Failure: Error>(
    _ storage: inout Storage,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> (Result, Bool) {
    var written = false
    let result: Result
    if Failure.self == Never.self {
      // Cannot throw: mutate the stored value itself, with no copy.
      result = try withUnsafeMutablePointer(to: &written) { (written) throws(Failure) -> Result in
        try withUnsafeMutablePointer(to: &storage.value) { (value) throws(Failure) -> Result in
          try body(InoutRef(value, written: written))
        }
      }
    } else {
      // May throw: work on a copy so a throw leaves the state untouched.
      var draft = storage.value
      result = try withUnsafeMutablePointer(to: &written) { (written) throws(Failure) -> Result in
        try withUnsafeMutablePointer(to: &draft) { (value) throws(Failure) -> Result in
          try body(InoutRef(value, written: written))
        }
      }
      if written { storage.value = draft }
    }
    return (result, written)
  }

  /// Replaces the value when it differs from the current one.
  ///
  /// - Returns: Whether the value changed.
  @inlinable @discardableResult
  func publish(_ newValue: Value) -> Bool {
    if Self.isLarge {
      return withUnsafePointer(to: newValue) { newValue in
        publishLarge(newValue) { [isEqual] in isEqual($0.pointee, $1.pointee) }
      }
    }
    return publish(computing: { newValue })
  }

  /// `publish(_:)` for a large value, read where it is: `areSame` compares
  /// the stored value with it in place, once, under the lock, and it is
  /// copied in only when it differs. So a derived value's update holds no
  /// copy of its own (`PipelineEntry`), and the stored value is the only
  /// memo of the last output.
  ///
  /// - Returns: Whether the value changed.
  @inlinable @inline(never) @discardableResult
  func publishLarge(
    _ newValue: UnsafePointer<Value>, unlessSame areSame: (UnsafePointer<Value>, UnsafePointer<Value>) -> Bool
  ) -> Bool {
    var notify = false
    let changed = withStorage("publish") { storage -> Bool in
      if withUnsafePointer(to: &storage.value, { areSame($0, newValue) }) { return false }
      notify = replace(&storage, with: newValue)
      return true
    }
    if notify { drain() }
    return changed
  }

  /// Replaces the value with what `compute` returns, computed under this
  /// core's lock so that concurrent publishers cannot reorder their results.
  /// `compute` may read other cores, never this one.
  ///
  /// - Returns: Whether the value changed.
  @inlinable @discardableResult
  func publish(computing compute: () -> Value) -> Bool {
    var notify = false
    let changed = withStorage("publish") { storage -> Bool in
      let newValue = compute()
      if isEqual(storage.value, newValue) { return false }
      notify = withUnsafePointer(to: newValue) { replace(&storage, with: $0) }
      return true
    }
    if notify { drain() }
    return changed
  }

  /// Publishes `newValue` (which differs from the current value): the
  /// previous value goes straight into the box that a derived value's
  /// `state` reads and the event carries. Call with the storage lock held.
  ///
  /// - Returns: Whether there is something to deliver.
  @inlinable @inline(__always)
  func replace(_ storage: inout Storage, with newValue: UnsafePointer<Value>) -> Bool {
    let published = ChangeBox(previous: &storage.value, current: newValue, version: storage.sequence &+ 1)
    storage.value = newValue.pointee
    storage.lastPublished = published
    countChange(&storage)
    guard storage.valueSubscribers > 0 else { return false }
    enqueue(&storage, .change(sequence: storage.sequence, published))
    return true
  }

  /// Queues an event; call with the storage lock held.
  @inlinable @inline(__always)
  func enqueue(_ storage: inout Storage, _ event: Event) {
    storage.pending.append(event)
    queued.add(1, ordering: .relaxed)
  }

  /// Counts a change and queues its event when anyone receives values;
  /// returns whether there is something to deliver.
  @inlinable @inline(__always)
  func record(_ storage: inout Storage, previous: Value?) -> Bool {
    countChange(&storage)
    guard storage.valueSubscribers > 0 else { return false }
    enqueueChange(&storage, previous: previous)
    return true
  }

  /// Queues the event of the change just counted.
  @inlinable
  func enqueueChange(_ storage: inout Storage, previous: Value?) {
    enqueue(&storage, makeChange(&storage, previous: previous))
  }

  /// Counts a change of the value; call with the storage lock held.
  @inlinable @inline(__always)
  func countChange(_ storage: inout Storage) {
    storage.sequence &+= 1
    changeCounter.changeCount.store(storage.sequence, ordering: .relaxed)
  }

  /// The event for the change just made (the sequence already counted).
  @inlinable @inline(__always)
  func makeChange(_ storage: inout Storage, previous: Value?) -> Event {
    .change(
      sequence: storage.sequence,
      ChangeBox(
        Changes(
          previous: storage.changeSubscribers > 0 ? previous : nil, current: storage.value,
          version: storage.sequence)))
  }

  @inlinable
  func send(_ activity: Activity) {
    let notify = withStorage("send") { storage -> Bool in
      storage.sequence &+= 1
      guard storage.activitySubscribers > 0 else { return false }
      enqueue(&storage, .activity(sequence: storage.sequence, activity))
      return true
    }
    if notify { drain() }
  }

  // MARK: - Subscribing

  /// Registers a subscriber and returns its token; the value current at
  /// registration is its first delivery, unless dropped.
  @usableFromInline
  func subscribe(
    _ receiver: Subscriber.Receiver,
    dropsFirst: Bool,
    queue: DeliveryQueue,
    onTerminate: (@Sendable () -> Void)? = nil
  ) -> StoreSubscription {
    let (subscriber, notify, ended) = withStorage("subscribe") { storage in
      let subscriber = Subscriber(
        receiver, queue: queue, startSequence: storage.sequence, onTerminate: onTerminate)
      if !storage.ended {
        storage.subscribers.append(subscriber)
        count(subscriber, in: &storage, by: 1)
      }
      var notify = false
      if !dropsFirst, !subscriber.receivesActivities {
        enqueue(
          &storage,
          .first(subscriber, ChangeBox(previous: nil, current: &storage.value, version: changeCounter.current)))
        notify = true
      }
      return (subscriber, notify, storage.ended)
    }
    // The token holds its subscriber weakly: once the source drops it (on
    // cancel or when the source goes away), its closure is released even
    // while the token lives on.
    let token = StoreSubscription(
      cancel: { [weak self, weak subscriber] in
        guard let subscriber else { return }
        subscriber.markCancelled()
        self?.remove(subscriber)
      },
      retainInSource: { [weak self] token in
        guard let self else { return false }
        return self.withStorage("storeWhileSourceActive") { storage in
          guard !storage.ended else { return false }
          storage.retained.append(token)
          return true
        }
      },
      isLive: { [weak subscriber] in subscriber.map { !$0.isCancelled } ?? false })
    if notify { drain() }
    if ended { subscriber.terminate() }
    return token
  }

  /// Ends every subscription because the source this core follows went
  /// away: subscribers are told (`onTerminate`, so async sequences finish)
  /// and released with their closures, tokens kept with
  /// `storeWhileSourceActive()` are dropped, and later subscribers receive
  /// the current value once and end at once.
  @usableFromInline
  func end() {
    let (subscribers, retained) = withStorage("end") { storage in
      storage.ended = true
      let taken = (storage.subscribers, storage.retained)
      storage.subscribers = []
      storage.retained = []
      storage.valueSubscribers = 0
      storage.changeSubscribers = 0
      storage.activitySubscribers = 0
      hasValueSubscribers.store(false, ordering: .relaxed)
      return taken
    }
    for subscriber in subscribers {
      subscriber.terminate()
    }
    withExtendedLifetime(retained) {}
  }

  private func remove(_ subscriber: Subscriber) {
    if isLockedByCurrentThread {
      // Cancelled from inside a commit closure: the lock is ours but busy.
      // The subscriber is already marked cancelled; drop it on the next lock.
      needsPurge.store(true, ordering: .relaxed)
      return
    }
    withStorage("cancel") { storage in
      if let index = storage.subscribers.firstIndex(where: { $0 === subscriber }) {
        storage.subscribers.remove(at: index)
        count(subscriber, in: &storage, by: -1)
      }
    }
  }

  @usableFromInline
  func purgeCancelled(_ storage: inout Storage) {
    var kept: [Subscriber] = []
    kept.reserveCapacity(storage.subscribers.count)
    for subscriber in storage.subscribers {
      if subscriber.isCancelled {
        count(subscriber, in: &storage, by: -1)
      } else {
        kept.append(subscriber)
      }
    }
    storage.subscribers = kept
  }

  private func count(_ subscriber: Subscriber, in storage: inout Storage, by delta: Int) {
    if subscriber.activityReceiver != nil {
      storage.activitySubscribers += delta
    } else {
      storage.valueSubscribers += delta
      if subscriber.changesReceiver != nil { storage.changeSubscribers += delta }
    }
    hasValueSubscribers.store(storage.valueSubscribers > 0, ordering: .relaxed)
  }

  // MARK: - Delivering

  /// Delivers every queued event; see the type's discussion for who blocks.
  @inlinable
  func drain() {
    drain(marks: ThreadIdentity.marks(key: marksKey))
  }

  /// `drain()` for the thread whose marks the caller already has.
  @inlinable
  func drain(marks: UnsafeMutablePointer<ThreadMarks>) {
    if ThreadIdentity.isInClosure(marks) {
      // Inside a commit closure of some core: that core's lock is held, so
      // waiting could deadlock (the delivering thread may be waiting for
      // it) and delivering could run a subscriber that uses it. Deliver
      // once the outermost closure has ended.
      ThreadIdentity.deferDelivery(of: self, marks: marks)
      return
    } else if marks.pointee.word & ~ThreadMarks.deferred == 0 {
      // Not delivering anything: wait for the delivering thread, if any,
      // then deliver whatever is left ourselves.
      delivery.withLock { deliverPending(using: &$0, marks: marks) }
    } else {
      // Already delivering (a subscriber committed): never wait, or two
      // deliveries waiting on each other would deadlock. Leave the events to
      // whoever holds the lock; it re-checks the queue after releasing it.
      handedOff.store(true, ordering: .sequentiallyConsistent)
      atomicMemoryFence(ordering: .sequentiallyConsistent)
      guard delivery.withLockIfAvailable({ deliverPending(using: &$0, marks: marks) }) != nil else { return }
    }
    deliverHandedOff(marks: marks)
  }

  /// After releasing the delivery lock: delivers what threads that could not
  /// wait for it queued meanwhile. Inlined down to one load when nothing
  /// was handed off.
  @inlinable @inline(__always)
  func deliverHandedOff(marks: UnsafeMutablePointer<ThreadMarks>) {
    // The fence after releasing the lock pairs with the handing-off
    // thread's fence between raising the flag and trying the lock: either
    // it found the lock free, or this load sees its flag.
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    if handedOff.load(ordering: .relaxed) {
      deliverHandedOffEvents(marks: marks)
    }
  }

  @usableFromInline
  func deliverHandedOffEvents(marks: UnsafeMutablePointer<ThreadMarks>) {
    while handedOff.exchange(false, ordering: .sequentiallyConsistent) {
      guard storage.withLock({ !$0.pending.isEmpty }) else { return }
      guard delivery.withLockIfAvailable({ deliverPending(using: &$0, marks: marks) }) != nil else { return }
    }
  }

  @inlinable
  func deliverPending(using batch: inout EventQueue, marks: UnsafeMutablePointer<ThreadMarks>) {
    ThreadIdentity.withDelivery(marks: marks) {
      repeat {
        let subscribers = storage.withLock { storage -> [Subscriber] in
          swap(&storage.pending, &batch)
          queued.subtract(batch.count, ordering: .relaxed)
          return storage.subscribers
        }
        guard let head = batch.head else { return }
        deliver(head, to: subscribers)
        for event in batch.tail {
          deliver(event, to: subscribers)
        }
        batch.removeAll()
      } while queued.load(ordering: .acquiring) > 0
    }
  }

  @inlinable
  func deliver(_ event: Event, to subscribers: [Subscriber]) {
    switch event {
    case .change(let sequence, let box):
      Self.forEach(in: subscribers) { subscriber in
        if subscriber.startSequence < sequence {
          subscriber.receive(sequence, box)
        }
      }
    case .first(let subscriber, let box):
      subscriber.receive(subscriber.startSequence, box)
    case .activity(let sequence, let activity):
      Self.forEach(in: subscribers) { subscriber in
        if subscriber.startSequence < sequence, let receive = subscriber.activityReceiver {
          subscriber.perform(receive, activity)
        }
      }
    }
  }

  /// Delivers one change to the subscribers that existed when it happened.
  @inlinable @inline(__always)
  func deliverChange(_ sequence: UInt64, _ changes: Changes<Value>, to subscribers: [Subscriber]) {
    Self.forEach(in: subscribers) { subscriber in
      if subscriber.startSequence < sequence {
        subscriber.receive(sequence, changes)
      }
    }
  }

  /// Visits each subscriber without retaining it: `subscribers` owns them
  /// all for the whole loop.
  @inlinable @inline(__always)
  static func forEach(in subscribers: [Subscriber], _ body: (Subscriber) -> Void) {
    subscribers.withUnsafeBufferPointer { buffer in
      guard let base = UnsafeRawPointer(buffer.baseAddress) else { return }
      for index in buffer.indices {
        let subscriber = base.load(
          fromByteOffset: index &* MemoryLayout<Unmanaged<Subscriber>>.stride,
          as: Unmanaged<Subscriber>.self)
        subscriber._withUnsafeGuaranteedRef { body($0) }
      }
    }
  }
}

extension StateCore: LockOrderNode {
  @usableFromInline
  var lockOrderRole: String {
    "the store of `\(Value.self)` at \(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))"
  }
}

extension StateCore: DeferredDelivery {
  @usableFromInline
  func deliverDeferred() {
    drain()
  }
}

/// One registered subscriber of a `StateCore`.
@usableFromInline
final class CoreSubscriber<Value: Sendable, Activity: Sendable>: Sendable {
  @usableFromInline
  enum Receiver: Sendable {
    case changes(@Sendable (Changes<Value>) -> Void)
    case values(@Sendable (Value) -> Void)
    /// Values with their sequence number, for the derived-value hub; the
    /// value is read where the delivery holds it, for the call's duration.
    case sequencedValues(@Sendable (UInt64, UnsafePointer<Value>) -> Void)
    case activity(@Sendable (Activity) -> Void)
  }

  // The receiver, one stored property per kind: the delivery loop reads
  // these from a subscriber it holds unretained, which lets it call the
  // closure without copying it out of an enum payload. Exactly one is set.
  @usableFromInline let changesReceiver: (@Sendable (Changes<Value>) -> Void)?
  @usableFromInline let valuesReceiver: (@Sendable (Value) -> Void)?
  @usableFromInline let sequencedReceiver: (@Sendable (UInt64, UnsafePointer<Value>) -> Void)?
  @usableFromInline let activityReceiver: (@Sendable (Activity) -> Void)?
  @usableFromInline let isSynchronous: Bool
  @usableFromInline let queue: DeliveryQueue
  /// Events with a sequence number above this happened after registration.
  @usableFromInline let startSequence: UInt64
  private let onTerminate: (@Sendable () -> Void)?
  @usableFromInline let cancelled = Atomic<Bool>(false)

  init(
    _ receiver: Receiver, queue: DeliveryQueue, startSequence: UInt64,
    onTerminate: (@Sendable () -> Void)?
  ) {
    var changes: (@Sendable (Changes<Value>) -> Void)?
    var values: (@Sendable (Value) -> Void)?
    var sequenced: (@Sendable (UInt64, UnsafePointer<Value>) -> Void)?
    var activity: (@Sendable (Activity) -> Void)?
    switch receiver {
    case .changes(let receive): changes = receive
    case .values(let receive): values = receive
    case .sequencedValues(let receive): sequenced = receive
    case .activity(let receive): activity = receive
    }
    changesReceiver = changes
    valuesReceiver = values
    sequencedReceiver = sequenced
    activityReceiver = activity
    if case .committingThread = queue { isSynchronous = true } else { isSynchronous = false }
    self.queue = queue
    self.startSequence = startSequence
    self.onTerminate = onTerminate
  }

  var receivesActivities: Bool { activityReceiver != nil }

  /// Hands a state change to whichever receiver this subscriber has.
  ///
  /// Inlined into the delivery loop for the common subscriber (`Changes`,
  /// called on the delivering thread); the others take `receiveOther`.
  @inlinable @inline(__always)
  func receive(_ sequence: UInt64, _ changes: Changes<Value>) {
    if isSynchronous, changesReceiver != nil {
      // Called through the optional in place: binding it would copy
      // (retain) the closure for every subscriber.
      if !isCancelled { changesReceiver?(changes) }
      return
    }
    receiveOther(sequence, changes)
  }

  /// Hands a queued change to whichever receiver this subscriber has,
  /// reading the states in the box where they are: a subscriber of a large
  /// state gets no copy of it on the delivering thread's stack.
  @inlinable
  func receive(_ sequence: UInt64, _ box: ChangeBox<Value>) {
    if isSynchronous || sequencedReceiver != nil {
      guard !isCancelled else { return }
      if changesReceiver != nil {
        changesReceiver?(box.changes)
      } else if sequencedReceiver != nil {
        box.withCurrent { sequencedReceiver?(sequence, $0) }
      } else {
        valuesReceiver?(box.changes.current)
      }
      return
    }
    guard activityReceiver == nil else { return }
    let deliver: @Sendable () -> Void = { [self] in
      guard !isCancelled else { return }
      if changesReceiver != nil {
        changesReceiver?(box.changes)
      } else {
        valuesReceiver?(box.changes.current)
      }
    }
    switch queue {
    case .committingThread:
      deliver()
    case .main:
      // A ticket, as `perform` takes one: `waitUntilAllEventConsumed()`
      // waits for this block too.
      let ticket = PendingDeliveries.begin()
      DispatchQueue.main.async {
        deliver()
        PendingDeliveries.finish(ticket)
      }
    case .dispatch(let queue):
      let ticket = PendingDeliveries.begin()
      queue.async {
        deliver()
        PendingDeliveries.finish(ticket)
      }
    }
  }

  @inlinable
  func receiveOther(_ sequence: UInt64, _ changes: Changes<Value>) {
    if changesReceiver != nil {
      if isSynchronous {
        // Called through the optional in place: binding it would copy
        // (retain) the closure for every subscriber.
        if !isCancelled { changesReceiver?(changes) }
      } else if let receive = changesReceiver {
        perform(receive, changes)
      }
    } else if sequencedReceiver != nil {
      if !isCancelled { withUnsafePointer(to: changes.current) { sequencedReceiver?(sequence, $0) } }
    } else if valuesReceiver != nil {
      if isSynchronous {
        if !isCancelled { valuesReceiver?(changes.current) }
      } else if let receive = valuesReceiver {
        perform(receive, changes.current)
      }
    }
  }

  @inlinable
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  func markCancelled() {
    cancelled.store(true, ordering: .releasing)
  }

  /// The source went away: no more deliveries, and tell the subscriber.
  func terminate() {
    let wasCancelled = cancelled.exchange(true, ordering: .acquiringAndReleasing)
    if !wasCancelled { onTerminate?() }
  }

  /// Calls `receive` with `payload` where this subscriber asked to be called.
  /// The synchronous path allocates nothing.
  @inlinable @inline(__always)
  func perform<Payload: Sendable>(_ receive: @escaping @Sendable (Payload) -> Void, _ payload: Payload) {
    if isSynchronous {
      if !isCancelled { receive(payload) }
      return
    }
    switch queue {
    case .committingThread:
      if !isCancelled { receive(payload) }
    case .main:
      let ticket = PendingDeliveries.begin()
      DispatchQueue.main.async {
        if !self.isCancelled { receive(payload) }
        PendingDeliveries.finish(ticket)
      }
    case .dispatch(let queue):
      let ticket = PendingDeliveries.begin()
      queue.async {
        if !self.isCancelled { receive(payload) }
        PendingDeliveries.finish(ticket)
      }
    }
  }
}
