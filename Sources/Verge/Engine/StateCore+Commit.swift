import Dispatch
import Synchronization

// The one commit core. Every way of changing a store's state (`Store`'s
// commits, both reducer styles, scopes, a persisted restore) ends in
// `commit(trace:countAfter:_:)` or, from unspecialized code (through
// `Store.commitOutOfLine`), `commitLarge` or `commitSmallOutOfLine`. They
// pick one of three shapes by where the thread is and how large the state
// is:
//
// - `commitSmall`: outside any commit closure; delivers directly when it
//   can become the delivering thread.
// - `commitThenDrain`: inside another core's commit closure, or when the
//   direct path is busy; queues, then drains.
// - `commitLarge`: a state over `isLarge`; keeps the states on the heap.
//
// All three write through `mutate` and run the middlewares through
// `runMiddlewares`: a change to how a commit writes is made once, there.
extension StateCore {
  /// Mutates the value in place; see `Store.commit` for the contract.
  /// Sets `countAfter` to `changeCount` as it stood right after this
  /// commit, read under the lock.
  ///
  /// Always inlined: with no subscriber this is the plain locked commit,
  /// a few dozen instructions once specialized in the caller.
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
    defer {
      if marks.pointee.word & ThreadMarks.deferred != 0 { ThreadIdentity.deliverDeferred(marks: marks) }
    }
    if let outer = marks.pointee.closureCore {
      // Nested in another core's commit closure: check the order of nesting
      // before taking the lock; never deliver directly (the events wait for
      // the outermost closure to end).
      LockOrder.takeNested(self, insideClosureOf: outer)
      return try commitThenDrain(marks: marks, trace: trace(), countAfter: &countAfter, body)
    }
    return try commitSmall(marks: marks, trace: trace(), countAfter: &countAfter, body)
  }

  /// `commit(trace:countAfter:_:)` in a frame of its own, for code that
  /// runs unspecialized (`Store.commitOutOfLine`) when the state is small.
  /// Unspecialized, every temporary of the inlined small path
  /// (`commitSmall`) takes a slot of the state's size on the stack — about
  /// seventy for one commit, 4 MiB for a 64 KiB state — so a large state
  /// never comes here: it goes straight to `commitLarge`.
  @inline(never)
  func commitSmallOutOfLine<Result>(
    trace: () -> CommitTrace, countAfter: inout UInt64, _ body: (InoutRef<Value>) -> Result
  ) -> Result {
    commit(trace: trace(), countAfter: &countAfter, body)
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
    // Whether anyone receives values is read without the lock: a hint, as a
    // subscriber may come or go right after.
    guard hasValueSubscribers.load(ordering: .relaxed), marks.pointee.word == 0, delivery.tryLock() else {
      return try commitThenDrain(marks: marks, trace: trace(), countAfter: &countAfter, body)
    }
    // The change this thread delivers itself: the previous state moved
    // out of the commit, the current one copied. Both stay plain locals
    // until `deliverDirect` moves them into the one `Changes` it delivers,
    // so that the states are copied once and destroyed once, with that
    // `Changes`; a generic struct holding them (and a `Changes` copied from
    // it) would be copied and destroyed through the state's value
    // witnesses: a row action through `forEach` with one subscriber, at 100
    // rows, cost 2,899 instructions that way instead of 2,229 (scenario 11).
    var sequence: UInt64 = 0
    var kept: Value? = nil
    var current: Value? = nil
    var subscribers: [Subscriber] = []
    let result: Result
    do throws(Failure) {
      result = try withStorage(as: marks, "commit") { (storage) throws(Failure) -> Result in
        defer { countAfter = changeCounter.current }
        let (result, changed, previous) = try ThreadIdentity.asClosure(of: self, marks: marks) {
          () throws(Failure) in try apply(&storage, trace: trace, body)
        }
        guard changed else { return result }
        countChange(&storage)
        guard storage.valueSubscribers > 0 else { return result }
        if storage.pending.head == nil {
          sequence = storage.sequence
          if storage.changeSubscribers > 0 { kept = consume previous }
          current = storage.value
          subscribers = storage.subscribers
        } else {
          enqueueChange(&storage, previous: previous)
        }
        return result
      }
    } catch {
      deliverDirect(0, previous: nil, current: nil, to: [], marks: marks)
      throw error
    }
    deliverDirect(sequence, previous: consume kept, current: consume current, to: subscribers, marks: marks)
    return result
  }

  /// The rest of a commit made by the delivering thread (`delivery` held,
  /// the thread neither delivering nor in a commit closure): delivers the
  /// change to `current` (none when it is `nil`) to `subscribers`, those
  /// that existed when it happened; then whatever was queued meanwhile;
  /// then releases `delivery` and takes what was handed off.
  @inlinable
  func deliverDirect(
    _ sequence: UInt64, previous: consuming Value?, current: consuming Value?, to subscribers: borrowing [Subscriber],
    marks: UnsafeMutablePointer<ThreadMarks>
  ) {
    switch consume current {
    case .some(let current):
      let changes = Changes(previous: consume previous, current: consume current, version: sequence)
      marks.pointee.word &+= 1
      Self.deliver(changes, to: subscribers)
      marks.pointee.word &-= 1
    case .none:
      break
    }
    if queued.load(ordering: .acquiring) > 0 {
      deliverPending(using: &delivery.value, marks: marks)
    }
    delivery.unlock()
    // See `deliverHandedOff(marks:)` for the fence.
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    if handedOff.load(ordering: .relaxed) { deliverHandedOff(marks: marks) }
  }

  /// Calls `subscribers` with `changes`, skipping those that came after
  /// it. The common subscriber (it takes `Changes`, on the committing
  /// thread) is called here, through the optional in place: binding the
  /// closure would copy (retain) it for every subscriber. The others take
  /// `receiveOther`.
  ///
  /// Out of line (one function per state type): inlined into a commit, the
  /// loop ran short of registers, about three instructions more per
  /// subscriber.
  @inlinable @inline(never)
  static func deliver(_ changes: Changes<Value>, to subscribers: [Subscriber]) {
    let sequence = changes.version
    forEach(in: subscribers) { subscriber in
      guard subscriber.startSequence < sequence else { return }
      if subscriber.isSynchronous, subscriber.changesReceiver != nil {
        if !subscriber.isCancelled { subscriber.changesReceiver?(changes) }
      } else {
        subscriber.receiveOther(sequence, changes)
      }
    }
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
  /// boxed, never delivered directly, so the commit holds no state-sized
  /// value on its stack. A function of its own, so that no caller reserves
  /// stack for the small path's temporaries when the state is large.
  ///
  /// It writes through `mutate`, as the small path does; for a large state
  /// `mutate` keeps a throwing closure's draft on the heap. The middlewares
  /// run through `runMiddlewares(_:previousAt:trace:)`, which hands them
  /// the heap copy of the previous value itself.
  @inlinable @inline(never)
  func commitLarge<Result, Failure: Error>(
    trace: () -> CommitTrace,
    countAfter: inout UInt64,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let marks = ThreadIdentity.marks(key: marksKey)
    defer {
      if marks.pointee.word & ThreadMarks.deferred != 0 { ThreadIdentity.deliverDeferred(marks: marks) }
    }
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
        let (result, written) = try mutate(&storage, body)
        if written, let previous, storage.hasMiddlewares {
          runMiddlewares(&storage, previousAt: previous.address, trace: trace)
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
    // The middlewares first: binding the previous value copies it, which
    // is not free for a state of several references.
    if storage.hasMiddlewares, let previous {
      runMiddlewares(&storage, previous: previous, trace: trace)
    }
    return (result, true, previous)
  }

  /// Runs the commit middlewares, in order, on a value that was just
  /// written; call with the storage lock held and a previous value kept.
  @inlinable @inline(__always)
  func runMiddlewares(_ storage: inout Storage, previous: borrowing Value, trace: () -> CommitTrace) {
    let trace = trace()
    for middleware in storage.middlewares {
      middleware.body(previous, &storage.value, trace)
    }
  }

  /// `runMiddlewares(_:previous:trace:)` for `commitLarge`, whose previous
  /// value is on the heap at `previous`: the middlewares are handed that
  /// copy itself, so that no state-sized value is put on the stack for
  /// them. Reading `previous.pointee` as a value would copy it into a
  /// stack slot (three slots in all, 192 KiB for a 64 KiB state, once
  /// specialized); passed `inout` to `call(_:before:after:trace:)`, its
  /// address is what reaches each middleware. In a frame of its own, so
  /// that a commit without middlewares reserves nothing for them.
  @inlinable @inline(never)
  func runMiddlewares(
    _ storage: inout Storage, previousAt previous: UnsafeMutablePointer<Value>, trace: () -> CommitTrace
  ) {
    let trace = trace()
    for middleware in storage.middlewares {
      Self.call(middleware, before: &previous.pointee, after: &storage.value, trace: trace)
    }
  }

  /// Calls `middleware` on states that are both in memory: `before` is
  /// only read (a middleware receives it borrowed), and taking it `inout`
  /// lets its address be handed on without a copy.
  @inlinable @inline(__always)
  static func call(
    _ middleware: CommitMiddleware<Value>, before: inout Value, after: inout Value, trace: CommitTrace
  ) {
    middleware.body(before, &after, trace)
  }

  /// Runs a commit's closure on the locked storage: in place when it
  /// cannot throw, on a draft otherwise. Every commit writes through here,
  /// `commitLarge` too: a large state's draft is on the heap, so that the
  /// write holds no state-sized value on the stack. (Once specialized, a
  /// commit compiles only the branch its state and closure take.)
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
    } else if Self.isLarge {
      // May throw: a draft on the heap, so that a throw leaves the state
      // untouched and no state-sized value sits on the stack.
      let draft = UnsafeMutablePointer<Value>.allocate(capacity: 1)
      draft.initialize(from: &storage.value, count: 1)
      defer {
        draft.deinitialize(count: 1)
        draft.deallocate()
      }
      result = try withUnsafeMutablePointer(to: &written) { (written) throws(Failure) -> Result in
        try body(InoutRef(draft, written: written))
      }
      // Memory to memory: a `swap` or an assignment would go through a
      // state-sized temporary.
      if written { withUnsafeMutablePointer(to: &storage.value) { $0.update(from: draft, count: 1) } }
    } else {
      // May throw: work on a copy so a throw leaves the state untouched.
      result = try Self.mutateDraft(&storage.value, written: &written, body)
    }
    return (result, written)
  }

  /// `mutate`'s branch for a closure that may throw on a state that is not
  /// `isLarge`: runs `body` on a copy of `value` on the stack and writes
  /// the copy back when `body` wrote and returned.
  ///
  /// A function of its own: code that is not specialized for the state
  /// (`Store.commitOutOfLine`) compiles every branch of `mutate`, and
  /// there the draft took a slot of the state's size in the frame of
  /// `commitLarge`, which never runs this branch.
  @inlinable @inline(never)
  static func mutateDraft<Result, Failure: Error>(
    _ value: inout Value,
    written: inout Bool,
    _ body: (InoutRef<Value>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var draft = value
    let result = try withUnsafeMutablePointer(to: &written) { (written) throws(Failure) -> Result in
      try withUnsafeMutablePointer(to: &draft) { (draft) throws(Failure) -> Result in
        try body(InoutRef(draft, written: written))
      }
    }
    if written { value = draft }
    return result
  }
}
