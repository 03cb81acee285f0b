import Foundation

/// The timeline page of a trace: one self-contained HTML file (its styles
/// and script inline, nothing loaded from the network) that shows a
/// trace's actions as a list beside a timeline of their effects.
///
/// ```swift
/// try await trace.finish()
/// try TraceViewer.writeHTML(trace: trace.url, to: URL(fileURLWithPath: "session.html"))
/// ```
///
/// The page lists the actions (and commits, activities and `dropped`
/// marks) in order, with each action's effects as bars from start to end
/// (a cancelled one striped and crossed, a failed one red); a click on an
/// action, or the up and down arrow keys, show its state diff and the
/// state after it. It filters by action name and searches payloads, draws
/// only the rows on screen (so it stays responsive with 100,000 events),
/// follows the system's light or dark appearance, and skips an unfinished
/// last line. Its "Open trace…" button (or a file dropped on it) shows
/// another trace file.
public enum TraceViewer {
  /// The page with `trace` (the text of a trace file) embedded; `nil` for
  /// a page that waits for the user to open a file.
  ///
  /// - Parameter trace: The trace's lines.
  /// - Returns: The HTML.
  public static func html(embedding trace: String?) -> String {
    // `<` appears in a trace only inside JSON strings, where `\u003c`
    // means the same; so nothing in it can end the script element.
    let data = (trace ?? "").replacingOccurrences(of: "<", with: "\\u003c")
    return template.replacingOccurrences(of: "__VERGE_TRACE_DATA__", with: data)
  }

  /// Writes the page with the trace file at `trace` embedded to `page`.
  ///
  /// - Parameters:
  ///   - trace: A trace file (see `Trace`).
  ///   - page: Where to write the HTML; an existing file is replaced.
  /// - Throws: `TraceError.file` when the trace cannot be read or the
  ///   page written; `TraceError.notATrace` when the file does not start
  ///   with a trace header.
  public static func writeHTML(trace: URL, to page: URL) throws(TraceError) {
    let text: String
    do {
      text = try String(contentsOf: trace, encoding: .utf8)
    } catch {
      throw .file(path: trace.path, reason: "cannot be read: \(error.localizedDescription)")
    }
    _ = try TraceReader.header(of: text, path: trace.path)
    do {
      try html(embedding: text).write(to: page, atomically: true, encoding: .utf8)
    } catch {
      throw .file(path: page.path, reason: "cannot be written: \(error.localizedDescription)")
    }
  }
}
