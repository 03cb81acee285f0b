/// How strictly a test store checks a test.
///
/// ```swift
/// store.exhaustivity = .off      // assert only what the test cares about
/// ```
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change must be described, every action, mutation or
  /// activity that effects produce must be received, and no effect may
  /// still be running at `finish()`. The default.
  case on
  /// Partial assertions: an assertion closure checks only the fields it
  /// assigns, actions, mutations and activities that are not received are
  /// skipped, and effects still running at `finish()` are cancelled without
  /// a failure.
  case off
}
