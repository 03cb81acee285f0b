/// A clock that moves only when the test tells it to, so reducers that wait
/// (`try await clock.sleep(for: .seconds(1))`) are tested without waiting.
///
/// Give it to the reducer under test in place of `ContinuousClock`, then
/// advance it:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: .init(), reducer: Timer(clock: clock))
/// await store.send(.start)
/// await clock.waitForSleepers()          // the effect is now sleeping
/// clock.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.ticks = 1 }
/// ```
///
/// Sleepers whose deadline is reached wake in deadline order; a sleeping
/// task that is cancelled wakes at once with `CancellationError`.
public final class TestClock: Clock, Sendable {
  /// A point in a test clock's time: an offset from its start.
  public struct Instant: InstantProtocol, Sendable, Hashable {
    /// How far after the clock's start this instant is.
    public let offset: Swift.Duration

    /// Creates an instant `offset` after the clock's start.
    ///
    /// - Parameter offset: The distance from the start.
    public init(offset: Swift.Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: How far to move.
    /// - Returns: The new instant.
    public func advanced(by duration: Swift.Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    ///
    /// - Parameter other: The later (or earlier) instant.
    /// - Returns: `other - self`.
    public func duration(to other: Instant) -> Swift.Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelled: Set<UInt64> = []
  }

  private let state = SharedLock(State())
  private let wakeup = Wakeup()

  /// Creates a clock at its start.
  public init() {}

  /// The clock's current time.
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: the clock jumps exactly where it is told.
  public var minimumResolution: Swift.Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline` or past it.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome = state.withLock { state -> Result<Bool, CancellationError> in
          if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(true) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .success(false)
        }
        switch outcome {
        case .failure(let error): continuation.resume(throwing: error)
        case .success(true): continuation.resume()
        case .success(false): wakeup.signal()
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward and wakes the sleepers whose deadline it
  /// reached, earliest first.
  ///
  /// Each wakes once, at the new time: a task that sleeps again (a timer's
  /// next period) sleeps from there, so advancing a one-second timer by
  /// three seconds ticks it once. Advance one period at a time to see each
  /// tick.
  ///
  /// - Parameter duration: How far to move; negative durations do nothing.
  public func advance(by duration: Swift.Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `instant` (never backwards) and wakes the sleepers
  /// whose deadline it reached, earliest first.
  ///
  /// - Parameter instant: The new time.
  public func advance(to instant: Instant) {
    let due = state.withLock { state -> [Sleeper] in
      if instant > state.now { state.now = instant }
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Waits, without polling, until at least `count` tasks sleep on the
  /// clock; call it before `advance` so the work to wake is asleep.
  ///
  /// - Parameters:
  ///   - count: How many sleepers to wait for.
  ///   - timeout: How long to wait, in real time.
  /// - Returns: `true` when that many sleep; `false` after `timeout`.
  @discardableResult
  public func waitForSleepers(_ count: Int = 1, timeout: Swift.Duration = .seconds(1)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
      let generation = wakeup.generation
      if sleeperCount >= count { return true }
      if await !wakeup.wait(since: generation, until: deadline) { return sleeperCount >= count }
    }
  }
}
