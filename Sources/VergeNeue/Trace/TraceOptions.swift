/// The bounds of a `Trace`: how much it holds in memory, how large its
/// file grows, how long a rendered value may be.
public struct TraceOptions: Sendable, Equatable {
  /// Events waiting for the writer at most; when the store produces
  /// events faster than they are written, the oldest waiting ones are
  /// dropped and a `dropped` record says how many. At least 16.
  public var bufferCapacity: Int
  /// The size the file may reach, in bytes. An event that would pass it
  /// makes the writer rewrite the file with the newest events that fit in
  /// half of it, after a `dropped` record that says how many were
  /// removed. At least 64 KiB.
  public var maximumFileSize: Int
  /// Rendered values (payloads, diff sides, state fields) longer than
  /// this are cut, ending with `…`. At least 16.
  public var maximumValueLength: Int
  /// Whether each action and commit record carries the state after it
  /// (each top-level property, rendered). Rendering it visits the whole
  /// state on the writer's thread; turn it off for very large states.
  public var recordsState: Bool

  /// Creates options.
  ///
  /// - Parameters:
  ///   - bufferCapacity: Events waiting for the writer at most (default 10,000).
  ///   - maximumFileSize: The file's size cap in bytes (default 64 MiB).
  ///   - maximumValueLength: The length a rendered value is cut to (default 2,000).
  ///   - recordsState: Whether records carry the state after them (default `true`).
  public init(
    bufferCapacity: Int = 10_000,
    maximumFileSize: Int = 64 << 20,
    maximumValueLength: Int = 2_000,
    recordsState: Bool = true
  ) {
    self.bufferCapacity = bufferCapacity
    self.maximumFileSize = maximumFileSize
    self.maximumValueLength = maximumValueLength
    self.recordsState = recordsState
  }

  /// Throws when a bound is below its minimum.
  func validate() throws(TraceError) {
    if bufferCapacity < 16 { throw .invalidOption("bufferCapacity \(bufferCapacity) is below 16") }
    if maximumFileSize < 64 << 10 { throw .invalidOption("maximumFileSize \(maximumFileSize) is below 65536") }
    if maximumValueLength < 16 { throw .invalidOption("maximumValueLength \(maximumValueLength) is below 16") }
  }
}

/// Why a trace could not be written or read.
public enum TraceError: Error, Equatable, CustomStringConvertible {
  /// An option is out of its range; the message says which.
  case invalidOption(String)
  /// The file could not be created, written or read; the message says why.
  case file(path: String, reason: String)
  /// The file is not a trace this version reads: its first line is not a
  /// `verge-trace` header of a known version.
  case notATrace(path: String)
  /// A line other than an unfinished last one is not a record.
  case damagedLine(path: String, line: Int)
  /// An action of the trace has no `action` field (its type is not
  /// `Encodable`) or does not decode as the given type.
  case undecodableAction(seq: Int, reason: String)
  /// Events were dropped from the trace (a full buffer or the size cap),
  /// so its actions do not replay to the state the store had.
  case incomplete(dropped: Int)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .invalidOption(let message): return "invalid trace option: \(message)"
    case .file(let path, let reason): return "trace file \(path): \(reason)"
    case .notATrace(let path): return "\(path) is not a trace file (no verge-trace header of version \(Trace.formatVersion))"
    case .damagedLine(let path, let line): return "trace file \(path): line \(line) is not a record"
    case .undecodableAction(let seq, let reason): return "the action of record \(seq) cannot be decoded: \(reason)"
    case .incomplete(let dropped): return "the trace lacks \(dropped) dropped events, so it cannot be replayed"
    }
  }
}
