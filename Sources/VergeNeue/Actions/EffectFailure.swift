import Foundation

/// An error an effect threw and nothing caught, as an `ActionStore` hands it
/// to its `onEffectError` handler.
///
/// ```swift
/// let store = ActionStore(
///   initialState: Feature.State(), reducer: Feature(),
///   onEffectError: { failure in crashReporter.record(failure.error) })
/// ```
///
/// Catch errors you expect in the effect itself, with
/// `Effect.run(priority:fileID:line:operation:catch:)`; this is for the
/// ones you did not expect. A `CancellationError` is cancellation, never a
/// failure.
public struct EffectFailure<Action: Sendable>: Sendable, CustomStringConvertible {
  /// The error the effect threw.
  public let error: any Error
  /// The action whose reduction returned the effect.
  public let action: Action
  /// The file where the effect was made (`Effect.run`), as `#fileID`.
  public let fileID: StaticString
  /// The line where the effect was made.
  public let line: UInt

  /// Makes a failure report (the store makes them; tests may too).
  ///
  /// - Parameters:
  ///   - error: The error the effect threw.
  ///   - action: The action whose reduction returned the effect.
  ///   - fileID: The file where the effect was made.
  ///   - line: The line where the effect was made.
  public init(error: any Error, action: Action, fileID: StaticString, line: UInt) {
    self.error = error
    self.action = action
    self.fileID = fileID
    self.line = line
  }

  /// One line naming the error, the action that started the effect and
  /// where the effect was made.
  public var description: String {
    "An effect made at \(fileID):\(line) for action \(action) failed with an error: \(error)"
  }

  /// The default `onEffectError`: writes the failure to standard error,
  /// one line.
  ///
  /// In a debug build the line is `description` plus a hint to catch the
  /// error, so the developer running the app sees it in the console. In a
  /// release build the line names the error and where the effect was made,
  /// but not the action, whose payload may hold user data that does not
  /// belong in a production log; pass your own handler to send failures to
  /// your logging or crash reporting.
  ///
  /// - Parameter failure: The failure.
  public static func log(_ failure: EffectFailure) {
    #if DEBUG
      let line =
        "VergeNeue: \(failure). Catch it with Effect.run(operation:catch:), or handle it in the store's onEffectError.\n"
    #else
      let line = "VergeNeue: an effect made at \(failure.fileID):\(failure.line) failed with an error: \(failure.error)\n"
    #endif
    FileHandle.standardError.write(Data(line.utf8))
  }
}
