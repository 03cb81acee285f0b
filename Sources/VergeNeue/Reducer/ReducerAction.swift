/// Async work of a method reducer that may commit mutations, dispatch other
/// actions, send activities, throw, and return a `Result` (spelled
/// `Action<Result>` inside a `ReducerType`).
///
/// ```swift
/// func asyncIncrement() -> Action<Void> {
///   .init { context in
///     try await Task.sleep(for: .milliseconds(10))
///     context.commit { $0.syncIncrement(adding: 1) }
///   }
/// }
/// ```
///
/// An action that throws keeps the mutations it committed before throwing
/// (each is a finished change) and commits nothing after; the error reaches
/// the caller of `dispatch`.
public struct ReducerAction<Reducer: ReducerType, Result: Sendable>: Sendable {
  /// The action's name; the enclosing function's name unless one was given.
  public let name: String
  /// The file that made the action (`#fileID`).
  public let file: StaticString
  /// The line that made the action.
  public let line: UInt
  let body: @Sendable (ActionContext<Reducer>) async throws -> Result

  /// Creates an action.
  ///
  /// - Parameters:
  ///   - name: A name for logs and tests; the enclosing function's name when `nil`.
  ///   - file: The defining file.
  ///   - function: The defining function.
  ///   - line: The defining line.
  ///   - body: The work; receives the context to commit and dispatch through.
  public init(
    _ name: String? = nil,
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    _ body: @escaping @Sendable (ActionContext<Reducer>) async throws -> Result
  ) {
    self.name = name ?? "\(function)"
    self.file = file
    self.line = line
    self.body = body
  }
}

/// Identifies one dispatch of a method-reducer action, as middlewares and
/// event observers see it.
public struct ActionInfo: Sendable, Hashable, CustomStringConvertible {
  /// The action's name.
  public let name: String
  /// A number unique to this dispatch within its store.
  public let id: UInt64
  /// `File.swift:12` where the action was defined.
  public let location: String

  /// The action's name.
  public var description: String { name }
}

/// A message in a method-reducer store's middleware pipeline.
///
/// Every committed mutation passes through the pipeline, also those an
/// action commits. An action passes once, when dispatched: letting it on
/// (`next`) starts it; dropping it makes `dispatch` throw
/// `NeueError.dropped`. A middleware can replace a mutation with another,
/// but an action only with the same action.
public enum ReducerMessage<State>: Sendable, CustomStringConvertible {
  /// A mutation about to be committed.
  case mutation(ReducerMutation<State>)
  /// An action about to start.
  case action(ActionInfo)

  /// The mutation's or action's name.
  public var name: String {
    switch self {
    case .mutation(let mutation): return mutation.name
    case .action(let info): return info.name
    }
  }

  /// The name, prefixed with `action ` for actions.
  public var description: String {
    switch self {
    case .mutation(let mutation): return mutation.name
    case .action(let info): return "action \(info.name)"
    }
  }
}
