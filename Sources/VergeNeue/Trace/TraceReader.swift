import Foundation

/// Reads trace files: the header, then one record per line. An unfinished
/// last line (a trace cut while it was written) is skipped; any other line
/// that is not a record is an error.
enum TraceReader {
  private struct Header: Decodable {
    let kind: String
    let format: String?
    let version: Int?
  }

  private struct Line<Action: Decodable>: Decodable {
    let kind: String
    let seq: Int?
    let count: Int?
    let action: Action?
  }

  private struct Kind: Decodable {
    let kind: String
    let seq: Int?
    let count: Int?
  }

  /// The text's lines, without an unfinished last one.
  static func lines(of text: String) -> [Substring] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    if !text.hasSuffix("\n"), let last = lines.last,
      (try? JSONSerialization.jsonObject(with: Data(last.utf8))) == nil
    {
      lines.removeLast()
    }
    return lines
  }

  /// Checks that `text` starts with a header of this format and version.
  static func header(of text: String, path: String) throws(TraceError) -> Int {
    guard let first = lines(of: text).first,
      let header = try? JSONDecoder().decode(Header.self, from: Data(first.utf8)),
      header.kind == "header", header.format == Trace.formatName, header.version == Trace.formatVersion
    else { throw .notATrace(path: path) }
    return Trace.formatVersion
  }

  /// The actions of the trace at `url`, in the order they were reduced.
  static func actions<Action: Decodable>(_: Action.Type, in url: URL) throws(TraceError) -> [Action] {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw .file(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
    }
    _ = try header(of: text, path: url.path)
    let decoder = JSONDecoder()
    var actions: [Action] = []
    var dropped = 0
    for (number, line) in lines(of: text).enumerated().dropFirst() {
      let data = Data(line.utf8)
      guard let kind = try? decoder.decode(Kind.self, from: data) else {
        throw .damagedLine(path: url.path, line: number + 1)
      }
      switch kind.kind {
      case "dropped":
        dropped += kind.count ?? 0
      case "action":
        let action: Action?
        do {
          action = try decoder.decode(Line<Action>.self, from: data).action
        } catch {
          throw .undecodableAction(seq: kind.seq ?? 0, reason: "\(error)")
        }
        guard let action else {
          throw .undecodableAction(seq: kind.seq ?? 0, reason: "the record has no action field (is the action type Encodable?)")
        }
        actions.append(action)
      default:
        continue
      }
    }
    if dropped > 0 { throw .incomplete(dropped: dropped) }
    return actions
  }
}

extension Recording where Message: Decodable {
  /// The actions a `Trace` of an `ActionStore` wrote, for
  /// `ActionStore.replay(_:)`: replayed into a store in the trace's
  /// starting state, they reproduce the state it ended in.
  ///
  /// ```swift
  /// let fresh = ActionStore(initialState: Counter(), reducer: CounterFeature())
  /// try fresh.replay(Recording(trace: traceURL))
  /// ```
  ///
  /// The recording has no start state (a trace does not store one), so the
  /// replay does not check the store's state first.
  ///
  /// - Parameter url: The trace file; its action type must be `Codable`.
  /// - Throws: `TraceError`: the file cannot be read, is not a trace, has a
  ///   damaged line, an action that does not decode, or lacks dropped
  ///   events (`incomplete`).
  public init(trace url: URL) throws(TraceError) {
    self.init(startState: nil, messages: try TraceReader.actions(Message.self, in: url))
  }
}
