/// Where a commit came from: its name (if given) and its source location.
public struct CommitTrace: Sendable, CustomStringConvertible {
  /// The name passed to `commit`, or the mutation's name in VergeNeue; empty
  /// when none was given.
  public let name: String
  /// The file that called `commit` (`#fileID`).
  public let file: StaticString
  /// The function that called `commit` (`#function`).
  public let function: StaticString
  /// The line that called `commit`.
  public let line: UInt

  /// Creates a trace.
  ///
  /// - Parameters:
  ///   - name: A name for logs and tests; may be empty.
  ///   - file: The calling file.
  ///   - function: The calling function.
  ///   - line: The calling line.
  public init(name: String, file: StaticString, function: StaticString, line: UInt) {
    self.name = name
    self.file = file
    self.function = function
    self.line = line
  }

  /// `name (File.swift:12)`, or `function (File.swift:12)` without a name.
  public var description: String {
    "\(name.isEmpty ? "\(function)" : name) (\(file):\(line))"
  }
}
