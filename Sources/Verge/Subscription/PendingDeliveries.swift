/// The deliveries handed to a dispatch queue or to the main actor that have
/// not run yet, across the process: what `waitUntilAllEventConsumed()`
/// waits for.
///
/// Each scheduled block takes a ticket, in order, and returns it when it has
/// run; a waiter waits for every ticket taken before it started waiting.
/// Synchronous deliveries (on the committing thread) take no ticket.
@usableFromInline
enum PendingDeliveries {
  private struct State {
    var nextTicket: UInt64 = 0
    var outstanding: Set<UInt64> = []
    var waiters: [(before: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private static let state = LockedBox(State())

  /// Takes a ticket for a block about to be scheduled.
  ///
  /// - Returns: The ticket; give it to `finish(_:)` once the block has run.
  @usableFromInline
  static func begin() -> UInt64 {
    state.withLock { state in
      defer { state.nextTicket += 1 }
      state.outstanding.insert(state.nextTicket)
      return state.nextTicket
    }
  }

  /// Returns a ticket: its block has run.
  ///
  /// - Parameter ticket: What `begin()` returned.
  @usableFromInline
  static func finish(_ ticket: UInt64) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.outstanding.remove(ticket)
      guard !state.waiters.isEmpty else { return [] }
      let oldest = state.outstanding.min() ?? .max
      var ready: [CheckedContinuation<Void, Never>] = []
      state.waiters.removeAll { waiter in
        guard waiter.before <= oldest else { return false }
        ready.append(waiter.continuation)
        return true
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Suspends until every block scheduled before this call has run.
  static func waitForScheduled() async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Bool in
        let oldest = state.outstanding.min() ?? .max
        if state.nextTicket <= oldest { return true }
        state.waiters.append((state.nextTicket, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }
}

extension ReadableStore {
  /// Suspends until every delivery scheduled so far on a dispatch queue or
  /// the main actor (of any store or derived value) has run: Verge's
  /// `waitUntilAllEventConsumed()`, for tests.
  ///
  /// ```swift
  /// store.commit { $0.count = 1 }   // a subscriber on .main
  /// await store.waitUntilAllEventConsumed()
  /// #expect(label.text == "1")
  /// ```
  ///
  /// Deliveries on the committing thread have already run when `commit`
  /// returns; deliveries scheduled after this call (by the ones it waits
  /// for, say) are not waited for.
  public func waitUntilAllEventConsumed() async {
    await PendingDeliveries.waitForScheduled()
  }
}

extension Derived {
  /// Suspends until every delivery scheduled so far on a dispatch queue or
  /// the main actor has run; see `ReadableStore.waitUntilAllEventConsumed()`.
  public func waitUntilAllEventConsumed() async {
    await PendingDeliveries.waitForScheduled()
  }
}
