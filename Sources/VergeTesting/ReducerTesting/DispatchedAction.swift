/// A method-reducer action that a `TestStore` dispatched and runs in
/// the background, so the test can assert its mutations as they happen.
///
/// ```swift
/// let load = store.dispatch { $0.load() }
/// await store.receive("setLoading(_:)") { $0.isLoading = true }
/// clock.advance(by: .seconds(1))
/// let count = try await load.value
/// ```
public struct DispatchedAction<Result: Sendable>: Sendable {
  let task: Task<Result, any Error>

  /// Waits for the action and returns its result.
  ///
  /// - Returns: What the action returned.
  /// - Throws: What the action threw (`CancellationError` after `cancel()`,
  ///   when the action checks for it).
  public var value: Result {
    get async throws { try await task.value }
  }

  /// Cancels the action's task.
  public func cancel() {
    task.cancel()
  }
}
