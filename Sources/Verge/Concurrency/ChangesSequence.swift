
/// The changes of a store's state or of a derived value, as an async sequence.
///
/// ```swift
/// for await changes in store.changes {
///   changes.ifChanged(\.count) { count in print(count) }
/// }
/// ```
///
/// Each iteration subscribes when it starts: the first element is the
/// current value, then changes follow in commit order. A consumer slower
/// than the commits never makes the sequence buffer without bound: pending
/// changes are merged into one (latest wins), whose `previous` is the value
/// the consumer saw last, so `ifChanged` stays correct. The sequence ends
/// when the source goes away or the iterating task is cancelled.
public struct ChangesSequence<Value: Sendable>: AsyncSequence, Sendable {
  /// Each element is one change (or several merged, for a slow consumer).
  public typealias Element = Changes<Value>
  /// Iteration never throws: it ends instead.
  public typealias Failure = Never

  typealias Subscribe = @Sendable (
    _ receive: @escaping @Sendable (Changes<Value>) -> Void,
    _ onTerminate: @escaping @Sendable () -> Void
  ) -> StoreSubscription?

  private let subscribe: Subscribe

  init(subscribe: @escaping Subscribe) {
    self.subscribe = subscribe
  }

  /// Starts an iteration (and its subscription).
  public func makeAsyncIterator() -> Iterator {
    let buffer = LatestChangesBuffer<Value>()
    let subscription = subscribe(
      { [weak buffer] changes in buffer?.receive(changes) },
      { [weak buffer] in buffer?.finish() })
    if let subscription {
      buffer.hold(subscription)
    } else {
      buffer.finish()
    }
    return Iterator(buffer: buffer)
  }

  /// Iterates changes; see `ChangesSequence`.
  public struct Iterator: AsyncIteratorProtocol {
    let buffer: LatestChangesBuffer<Value>

    /// The next change, or `nil` once the source is gone or the task cancelled.
    public mutating func next() async -> Changes<Value>? {
      await buffer.next()
    }
  }
}

/// Holds at most one pending change for a consumer, merging newer ones in.
final class LatestChangesBuffer<Value: Sendable>: Sendable {
  private struct State: Sendable {
    var pending: Changes<Value>?
    var waiting: CheckedContinuation<Changes<Value>?, Never>?
    var finished = false
    var subscription: StoreSubscription?
  }

  private enum NextStep {
    case deliver(Changes<Value>?)
    case wait
  }

  private let state = LockedBox(State())

  func hold(_ subscription: StoreSubscription) {
    state.withLock { $0.subscription = subscription }
  }

  func receive(_ changes: Changes<Value>) {
    let waiting = state.withLock { state -> CheckedContinuation<Changes<Value>?, Never>? in
      if state.finished { return nil }
      if let waiting = state.waiting {
        state.waiting = nil
        return waiting
      }
      if let pending = state.pending {
        state.pending = Changes(
          previous: pending.previous, current: changes.current, version: changes.version)
      } else {
        state.pending = changes
      }
      return nil
    }
    waiting?.resume(returning: changes)
  }

  func finish() {
    let (waiting, subscription) = state.withLock {
      state -> (CheckedContinuation<Changes<Value>?, Never>?, StoreSubscription?) in
      state.finished = true
      defer {
        state.waiting = nil
        state.subscription = nil
      }
      return (state.waiting, state.subscription)
    }
    subscription?.cancel()
    waiting?.resume(returning: nil)
  }

  func next() async -> Changes<Value>? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let step = state.withLock { state -> NextStep in
          if let pending = state.pending {
            state.pending = nil
            return .deliver(pending)
          }
          if state.finished || Task.isCancelled { return .deliver(nil) }
          state.waiting = continuation
          return .wait
        }
        if case .deliver(let changes) = step {
          continuation.resume(returning: changes)
        }
      }
    } onCancel: {
      finish()
    }
  }

  deinit {
    state.withLock { $0.subscription }?.cancel()
  }
}

extension Store {
  /// The state's changes as an async sequence; see `ChangesSequence`.
  public var changes: ChangesSequence<State> {
    ChangesSequence { [weak core] receive, onTerminate in
      core?.subscribe(.changes(receive), dropsFirst: false, queue: .committingThread, onTerminate: onTerminate)
    }
  }

  /// Activities as an async sequence, from the moment this is called.
  ///
  /// ```swift
  /// for await activity in store.activities() { show(activity) }
  /// ```
  ///
  /// - Parameter bufferingPolicy: What to keep when the consumer falls
  ///   behind; the newest 64 by default, so the buffer is always bounded.
  /// - Returns: A stream that ends when the store goes away.
  public func activities(
    bufferingPolicy: AsyncStream<Activity>.Continuation.BufferingPolicy = .bufferingNewest(64)
  ) -> AsyncStream<Activity> {
    let (stream, continuation) = AsyncStream.makeStream(of: Activity.self, bufferingPolicy: bufferingPolicy)
    let subscription = core.subscribe(
      .activity { continuation.yield($0) }, dropsFirst: true, queue: .committingThread,
      onTerminate: { continuation.finish() })
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}

extension Derived {
  /// The value's changes as an async sequence; see `ChangesSequence`.
  ///
  /// The sequence and each iteration keep this derived value alive, as a
  /// `sinkState` subscription does, so a loop over a derived value made in
  /// place (`for await value in store.derived(.map { … }).values`) runs
  /// until it breaks, its task is cancelled or its store goes away.
  public var changes: ChangesSequence<Value> {
    ChangesSequence { [self] receive, onTerminate in
      // Held as an `AnyObject`, as `sinkState` holds it: the iteration's
      // subscriber keeps it, and ending the iteration (or the store) drops
      // the subscriber, which breaks the cycle.
      let owner: any AnyObject & Sendable = self
      return core.subscribe(
        .changes { changes in withExtendedLifetime(owner) { receive(changes) } }, dropsFirst: false,
        queue: .committingThread, onTerminate: onTerminate)
    }
  }

  /// The value, then each new value, as an async sequence (latest wins for
  /// a slow consumer).
  public var values: AsyncMapSequence<ChangesSequence<Value>, Value> {
    changes.map { $0.current }
  }
}
