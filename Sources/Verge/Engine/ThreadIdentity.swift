#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif
import VergeThreadLocal

/// What the delivery engine records about each thread: whether it is
/// delivering or inside a commit closure, and which cores' events wait for
/// its commit closures to end.
@usableFromInline
struct ThreadMarks {
  /// Deliveries the thread is inside of (the low bits), and `deferred` when
  /// `deferredCores` is not empty. Zero, with `closureCore` `nil`, means
  /// "free": neither delivering nor holding any store's lock, so the thread
  /// may wait for a delivery.
  @usableFromInline var word = 0
  /// The core whose commit closure (or commit middleware) the thread runs
  /// innermost, `nil` outside any. Saved and restored around each closure,
  /// which costs what counting the closures did; a core whose lock is taken
  /// while it is set is taken nested, which `LockOrder` checks.
  @usableFromInline var closureCore: UnsafeRawPointer?
  /// Cores whose events this thread queued from inside a commit closure;
  /// drained once its last commit closure ends.
  @usableFromInline var deferredCores: [DeferredDelivery] = []
  /// The innermost `DependencyFrame` the thread runs inside of: dependency
  /// values that override, for the time of a call, those of the core whose
  /// commit closure the thread runs (a child reducer's `dependency(_:_:)`,
  /// a scope's own values, `withDependencies` inside a reducer). Saved and
  /// restored around the call; `nil` outside any.
  @usableFromInline var dependencyFrame: UnsafeRawPointer?
  /// The dependency keys whose defaults the thread is computing, innermost
  /// last, in whatever values: one needed again meanwhile is a cycle.
  var computingDefaults: [any DependencyKey.Type] = []
  /// Whether the thread is the main thread, once asked (`isMainThread`):
  /// 0 not yet asked, 1 yes, 2 no.
  var mainThreadAnswer: UInt8 = 0

  /// Set in `word` while `deferredCores` is not empty.
  @usableFromInline static let deferred = 1 << 62

  @usableFromInline
  init() {}
}

/// A core whose queued events a thread delivers after its commit closures.
@usableFromInline
struct DeferredDelivery {
  /// The core, deferred once however often it queues.
  let core: ObjectIdentifier
  /// Delivers what the core queued, as a commit outside any closure would;
  /// it holds the core until then.
  let deliver: () -> Void
}

/// Facts about the calling thread that the delivery engine needs and that
/// Swift's own concurrency primitives do not expose.
@usableFromInline
enum ThreadIdentity {
  /// A number that identifies the calling thread while it lives: the
  /// address of its `ThreadMarks`, so non-zero and aligned (a `LockedBox`
  /// word holds it beside a flag in the lowest bit). A store's lock is
  /// taken with it, and its commit needs the marks anyway: one thread-local
  /// look-up serves both.
  @inlinable @inline(__always)
  static var current: UInt {
    UInt(bitPattern: marks(key: marksKey))
  }

  /// The key whose destructor frees a thread's marks when the thread ends
  /// (the marks themselves are found through a C thread-local pointer,
  /// which has no destructor; see `marks(key:)`).
  @usableFromInline static let marksKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { marks in
      #if canImport(Darwin)
      let marks = marks.assumingMemoryBound(to: ThreadMarks.self)
      #else
      guard let marks = marks?.assumingMemoryBound(to: ThreadMarks.self) else { return }
      #endif
      // A commit made later in the thread's teardown (from another key's
      // destructor) makes new marks instead of using these.
      verge_thread_marks_set(nil)
      marks.deinitialize(count: 1)
      marks.deallocate()
    }
    if status != 0 {
      fatalError("Verge: pthread_key_create failed (\(status))")
    }
    return key
  }()

  /// The calling thread's marks: how many subscriber deliveries (of any
  /// store or derived value) it is inside of right now, and the core whose
  /// commit closure it runs innermost.
  ///
  /// A thread that is delivering or inside a commit closure never blocks
  /// waiting for another thread's delivery: that is what keeps cross-store
  /// use free of deadlocks.
  ///
  /// The marks are plain memory of the calling thread's own, found
  /// through a C thread-local pointer (one or two instructions, where
  /// `pthread_getspecific` is a call of about twenty on Linux); marking
  /// and unmarking are then an addition or a store each. `key`, read once
  /// by the caller (`marksKey` is a lazily made global, whose every read
  /// checks that it was made), is used only on the thread's first commit,
  /// to free the marks when the thread ends.
  @inlinable @inline(__always)
  static func marks(key: pthread_key_t) -> UnsafeMutablePointer<ThreadMarks> {
    if let marks = verge_thread_marks_get() {
      return marks.assumingMemoryBound(to: ThreadMarks.self)
    }
    return makeMarks(key: key)
  }

  /// The calling thread's first use of its marks.
  @usableFromInline
  static func makeMarks(key: pthread_key_t) -> UnsafeMutablePointer<ThreadMarks> {
    let marks = UnsafeMutablePointer<ThreadMarks>.allocate(capacity: 1)
    marks.initialize(to: ThreadMarks())
    let status = pthread_setspecific(key, marks)
    if status != 0 {
      fatalError("Verge: pthread_setspecific failed (\(status))")
    }
    verge_thread_marks_set(marks)
    return marks
  }

  /// Runs `body` as one more delivery of the calling thread.
  @inlinable @inline(__always)
  static func withDelivery<R>(marks: UnsafeMutablePointer<ThreadMarks>, _ body: () throws -> R) rethrows -> R {
    marks.pointee.word &+= 1
    defer { marks.pointee.word &-= 1 }
    return try body()
  }

  /// Runs `body` as a commit closure of `core` on the calling thread: a
  /// core that it commits to meanwhile leaves its events for later
  /// (`deferDelivery`), and one whose lock it takes is taken nested.
  ///
  /// `Core` is a `DependencyCarrier` (a `StateCore`): `@Dependency` reads
  /// the closure's core through `closureCore` as one.
  @inlinable @inline(__always)
  static func asClosure<Core: DependencyCarrier, R, Failure: Error>(
    of core: Core, marks: UnsafeMutablePointer<ThreadMarks>, _ body: () throws(Failure) -> R
  ) throws(Failure) -> R {
    let outer = marks.pointee.closureCore
    marks.pointee.closureCore = UnsafeRawPointer(Unmanaged.passUnretained(core).toOpaque())
    defer { marks.pointee.closureCore = outer }
    return try body()
  }

  /// Whether the calling thread is inside a commit closure.
  @inlinable @inline(__always)
  static func isInClosure(_ marks: UnsafeMutablePointer<ThreadMarks>) -> Bool {
    marks.pointee.closureCore != nil
  }

  /// Remembers that `core` has events to deliver once the calling thread's
  /// commit closures have ended. Call inside a commit closure.
  @usableFromInline
  static func deferDelivery<Value, Activity>(
    of core: StateCore<Value, Activity>, marks: UnsafeMutablePointer<ThreadMarks>
  ) {
    let id = ObjectIdentifier(core)
    if !marks.pointee.deferredCores.contains(where: { $0.core == id }) {
      marks.pointee.deferredCores.append(DeferredDelivery(core: id) { core.drain() })
    }
    marks.pointee.word |= ThreadMarks.deferred
  }

  /// After a commit closure: delivers what was deferred once the last one
  /// has ended. A commit calls it only when `word` has `ThreadMarks.deferred`
  /// set, so that it costs a load and a comparison when nothing was.
  @usableFromInline
  static func deliverDeferred(marks: UnsafeMutablePointer<ThreadMarks>) {
    guard !isInClosure(marks) else { return }
    while marks.pointee.word & ThreadMarks.deferred != 0 {
      marks.pointee.word &= ~ThreadMarks.deferred
      var cores: [DeferredDelivery] = []
      swap(&cores, &marks.pointee.deferredCores)
      for core in cores {
        core.deliver()
      }
    }
  }
}
