/// How strictly a test store checks a test.
///
/// ```swift
/// store.exhaustivity = .off                                // assert only what the test cares about
/// store.exhaustivity = .off(showSkippedAssertions: true)   // and show what that skipped
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
  ///
  /// With `showSkippedAssertions`, each failure that `.on` would have
  /// reported is shown instead, prefixed "Skipped assertion (exhaustivity
  /// is off): ", without failing the test: as a known issue inside a Swift
  /// Testing test (the test passes and lists it), as a line on standard
  /// error inside XCTest; a capturing ``TestFailureReporter`` gets it in its
  /// `skippedAssertion` handler.
  case off(showSkippedAssertions: Bool)

  /// Partial assertions that show nothing of what they skip:
  /// `.off(showSkippedAssertions: false)`.
  public static let off = Exhaustivity.off(showSkippedAssertions: false)

  /// Whether what `.off` skips is shown.
  var showsSkippedAssertions: Bool { self == .off(showSkippedAssertions: true) }
}
