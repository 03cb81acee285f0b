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
  /// The mutation's name; the enclosing function's name unless one was given.
  public let name: String
  /// The file that made the mutation (`#fileID`).
  public let file: StaticString
  /// The function that made the mutation (`#function`).
  public let function: StaticString
  /// The line that made the mutation.
  public let line: UInt
  let body: @Sendable (inout State) -> Void

  /// Creates a mutation.
  ///
  /// - Parameters:
  ///   - name: A name for logs and tests; the enclosing function's name
  ///     (`increment(by:)`) when `nil`.
  ///   - file: The defining file.
  ///   - function: The defining function.
  ///   - line: The defining line.
  ///   - body: Changes the state in place.
  public init(
    _ name: String? = nil,
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    _ body: @escaping @Sendable (inout State) -> Void
  ) {
    self.name = name ?? "\(function)"
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
  public var trace: CommitTrace {
    CommitTrace(name: name, file: file, function: function, line: line)
  }

  /// The mutation's name.
  public var description: String { name }
}
