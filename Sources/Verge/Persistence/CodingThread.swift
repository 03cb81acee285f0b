import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

/// Runs Foundation's JSON coding on a thread with a deep stack, and waits
/// for it.
///
/// `JSONDecoder` keeps several copies of the value it builds on the stack,
/// and `JSONEncoder` several of the value it reads: decoding a state of
/// 64 KiB stored inline takes about 2 MiB of stack, encoding it about
/// 320 KiB. A secondary thread or a Swift concurrency thread on Apple
/// platforms has 512 KiB, so restoring or writing such a state on one would
/// overflow its stack. The coding runs on a coding thread instead, with
/// `stackSize` bytes of stack.
///
/// Coding threads are kept, not started per call: one idle thread waits for
/// the next restore or write of any store in the process, so a write costs
/// two semaphore signals rather than a thread's start. A call that finds no
/// idle thread (another store is coding at the same moment) starts one more,
/// which ends after its call when one is already idle. A call that cannot
/// start a thread (the address space or the thread limit is reached:
/// `pthread_create` says so) runs `body` on the calling thread, so it never
/// waits for a thread that does not exist.
///
/// The calling thread only waits: it holds nothing the worker needs, and it
/// never waits for a thread that is busy with another call, so calling from
/// the main actor or from inside another store's commit cannot deadlock
/// unless `body` itself waits for that thread or store.
enum CodingThread {
  /// The worker's stack: a state stored inline needs about 32 times its
  /// size to decode, so this serves parts up to about 512 KiB inline. It is
  /// address space reserved while the thread lives; only the pages its
  /// deepest coding touched are memory.
  static let stackSize = 16 << 20

  /// How many idle coding threads wait for work; a thread that finishes
  /// while this many wait ends.
  static let keptIdle = 1

  /// Makes every start of a coding thread fail as if `pthread_create`
  /// had returned `EAGAIN`; for tests of the fallback.
  static let startFailsForTesting = Atomic<Bool>(false)

  /// How many calls ran on their calling thread because no coding thread
  /// could be had; for tests.
  static let callsRunOnCaller = Atomic<Int>(0)

  /// How many coding threads were started; for tests.
  static let threadsStarted = Atomic<Int>(0)

  /// The threads waiting for work.
  private static let idle = LockedBox<[CodingWorker]>([])

  /// Runs `body` on a coding thread with `stackSize` bytes of stack and
  /// returns what it returned, or throws what it threw. When no coding
  /// thread can be had, runs `body` on the calling thread.
  ///
  /// - Complexity: Two semaphore signals and two context switches when a
  ///   thread is idle (a thread's start otherwise), plus `body`.
  static func run<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let outcome = LockedBox<Result<Value, Failure>?>(nil)
    let job: @Sendable () -> Void = {
      let result = Result { () throws(Failure) -> Value in try body() }
      outcome.withLock { $0 = result }
    }
    // On a coding thread already (an async flush's write): its stack is
    // the deep one, and waiting for another thread would start one.
    if isCodingThread {
      job()
    } else if !runOnWorker(job) {
      callsRunOnCaller.add(1, ordering: .relaxed)
      job()
    }
    // Taken out so that nothing else holds a copy of the value.
    let result = outcome.withLock { outcome in
      defer { outcome = nil }
      return outcome
    }
    guard let result else { fatalError("Verge: the coding thread ended without a result") }
    return try result.get()
  }

  /// Runs `job` on an idle coding thread, or on one started for it,
  /// without waiting for it; on the calling thread when no coding thread can
  /// be had. For work that reports its end itself (an async flush), so that
  /// it needs no thread from Dispatch, which at a thread limit waits for
  /// one that cannot start.
  static func start(_ job: @escaping @Sendable () -> Void) {
    guard hand(CodingWorker.Call(job: job, done: DispatchSemaphore(value: 0))) else {
      callsRunOnCaller.add(1, ordering: .relaxed)
      return job()
    }
  }

  /// Whether the calling thread is a coding thread.
  static var isCodingThread: Bool { pthread_getspecific(workerMark) != nil }

  /// The thread-specific slot a coding thread marks itself in.
  fileprivate static let workerMark: pthread_key_t = {
    var key = pthread_key_t()
    guard pthread_key_create(&key, nil) == 0 else {
      fatalError("Verge: no thread-specific key for the coding threads")
    }
    return key
  }()

  /// Runs `job` on an idle coding thread, or on one started for it, and
  /// waits until it has run.
  ///
  /// - Returns: `false`, without running `job`, when no thread is idle and
  ///   none can be started.
  private static func runOnWorker(_ job: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    guard hand(CodingWorker.Call(job: job, done: done)) else { return false }
    done.wait()
    return true
  }

  /// Hands `call` to an idle coding thread, or to one started for it.
  ///
  /// - Returns: `false`, without running `call`, when no thread is idle and
  ///   none can be started.
  private static func hand(_ call: CodingWorker.Call) -> Bool {
    if let worker = idle.withLock({ $0.popLast() }) {
      worker.hand(call)
      return true
    }
    return CodingWorker.start(with: call)
  }

  /// Called by a worker that has run a call: it waits for the next one
  /// unless enough threads wait already.
  ///
  /// - Returns: Whether `worker` is now idle (else its thread ends).
  fileprivate static func park(_ worker: CodingWorker) -> Bool {
    idle.withLock { idle in
      guard idle.count < keptIdle else { return false }
      idle.append(worker)
      return true
    }
  }
}

/// One coding thread: runs the calls handed to it, one at a time.
private final class CodingWorker: Sendable {
  /// One call: the work and the semaphore its caller waits on.
  struct Call: Sendable {
    let job: @Sendable () -> Void
    let done: DispatchSemaphore
  }

  /// The call to run next; set before `wake` is signalled.
  private let next = LockedBox<Call?>(nil)
  private let wake = DispatchSemaphore(value: 0)

  private init(first: Call) {
    next.withLock { $0 = first }
  }

  /// Starts a thread with `CodingThread.stackSize` bytes of stack that runs
  /// `call` first.
  ///
  /// - Returns: `false` when the thread cannot be started (`pthread_create`
  ///   failed); `call` has then not run.
  static func start(with call: Call) -> Bool {
    if CodingThread.startFailsForTesting.load(ordering: .relaxed) { return false }
    let worker = CodingWorker(first: call)
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return false }
    defer { pthread_attr_destroy(&attributes) }
    guard pthread_attr_setstacksize(&attributes, CodingThread.stackSize) == 0,
      pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) == 0
    else { return false }
    let context = Unmanaged.passRetained(worker).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    let status = pthread_create(&thread, &attributes, { context in
      Unmanaged<CodingWorker>.fromOpaque(context).takeRetainedValue().loop()
      return nil
    }, context)
    #else
    var thread = pthread_t()
    let status = pthread_create(&thread, &attributes, { context in
      guard let context else { return nil }
      Unmanaged<CodingWorker>.fromOpaque(context).takeRetainedValue().loop()
      return nil
    }, context)
    #endif
    guard status == 0 else {
      Unmanaged<CodingWorker>.fromOpaque(context).release()
      return false
    }
    CodingThread.threadsStarted.add(1, ordering: .relaxed)
    return true
  }

  /// Hands an idle worker its next call.
  func hand(_ call: Call) {
    next.withLock { $0 = call }
    wake.signal()
  }

  /// The thread's body: runs calls until it is not kept idle.
  private func loop() {
    pthread_setspecific(CodingThread.workerMark, UnsafeRawPointer(bitPattern: 1))
    while true {
      let done = runNext()
      // Idle before the caller goes on, so that its next call finds this
      // thread rather than starting another.
      let kept = CodingThread.park(self)
      done.signal()
      guard kept else { return }
      wake.wait()
    }
  }

  /// Runs the call handed over, and lets go of it (and of whatever its job
  /// holds, a store's state core among them) before returning.
  ///
  /// - Returns: The semaphore to signal once the thread is idle again.
  private func runNext() -> DispatchSemaphore {
    let call = next.withLock { next in
      defer { next = nil }
      return next
    }
    guard let call else { fatalError("Verge: a coding thread woke with nothing to run") }
    #if canImport(Darwin)
    autoreleasepool { call.job() }
    #else
    call.job()
    #endif
    return call.done
  }
}
