import Verge
import Synchronization

/// What an `ActionEngine` tells a `Trace` beyond its lifecycle events: how
/// long the last observed reduction took, and which effect tasks ended after
/// being cancelled (an effect may catch the cancellation and return, so its
/// `effectFinished` event alone does not say).
///
/// With no trace attached it costs a relaxed load per observed reduction
/// and per ended effect; an unobserved send never reaches it.
final class TraceHooks: Sendable {
  /// Whether a trace is attached: the engine's observed reduction times
  /// itself only then.
  let tracing = Atomic<Bool>(false)
  /// Nanoseconds the last observed reduction took; written and read by the
  /// thread holding the engine's `draining` flag, right before its
  /// lifecycle observers run.
  let lastDuration = Atomic<Int64>(0)
  private let onCancelled = SharedLock<(@Sendable (EffectRunID) -> Void)?>(nil)

  /// Starts reporting; `cancelled` gets each effect ended after a cancel.
  func begin(cancelled: @escaping @Sendable (EffectRunID) -> Void) {
    onCancelled.withLock { $0 = cancelled }
    tracing.store(true, ordering: .relaxed)
  }

  /// Stops reporting.
  func end() {
    tracing.store(false, ordering: .relaxed)
    onCancelled.withLock { $0 = nil }
  }

  /// How long the last observed reduction took, in nanoseconds.
  var lastReductionNanoseconds: Int64 { lastDuration.load(ordering: .relaxed) }

  /// Reports an effect task that ended after being cancelled.
  func cancelled(_ run: EffectRunID) {
    guard tracing.load(ordering: .relaxed) else { return }
    onCancelled.withLock { $0 }?(run)
  }
}
