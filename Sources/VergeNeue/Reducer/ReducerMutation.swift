/// A named, synchronous change of a state: what a method reducer's
/// mutation methods return (spelled `Mutation` inside a `ReducerType`).
///
/// ```swift
/// func increment(by amount: Int) -> Mutation {
///   .init { $0.count += amount }     // named "increment(by:)"
/// }
/// ```
///
/// Its name (the reducer method's name by default), file and line go to the
/// core store's commit, so commit middlewares, logs and tests see them.
public struct ReducerMutation<State>: Sendable, CustomStringConvertible {
  /// The name given to `init`, if any; `name` falls back to `function`.
  @usableFromInline let givenName: String?
  /// The file that made the mutation (`#fileID`).
  public let file: StaticString
  /// The function that made the mutation (`#function`).
  public let function: StaticString
  /// The line that made the mutation.
  public let line: UInt
  @usableFromInline let body: @Sendable (inout State) -> Void

  /// The mutation's name; the enclosing function's name unless one was given.
  ///
  /// - Complexity: Formed on each read when no name was given (a commit
  ///   forms it only if a commit middleware asks for the trace).
  public var name: String { givenName ?? "\(function)" }

  /// Creates a mutation.
  ///
  /// - Parameters:
  ///   - name: A name for logs and tests; the enclosing function's name
  ///     (`increment(by:)`) when `nil`.
  ///   - file: The defining file.
  ///   - function: The defining function.
  ///   - line: The defining line.
  ///   - body: Changes the state in place.
  /// - Complexity: O(1); the default name is formed only when read.
  @inlinable
  public init(
    _ name: String? = nil,
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    _ body: @escaping @Sendable (inout State) -> Void
  ) {
    givenName = name
    self.file = file
    self.function = function
    self.line = line
    self.body = body
  }

  /// Applies the mutation to a value, outside any store (for tests and
  /// replays).
  ///
  /// - Parameter state: The value to change.
  public func apply(to state: inout State) {
    body(&state)
  }

  /// Where the mutation came from, as the core store's commit records it.
  @inlinable
  public var trace: CommitTrace {
    CommitTrace(name: name, file: file, function: function, line: line)
  }

  /// The mutation's name.
  public var description: String { name }
}
