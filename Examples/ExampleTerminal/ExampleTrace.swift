import Foundation
import VergeNeue

/// `--trace FILE` of both programs: a trace of a store written to FILE
/// while the program runs, and at the end the timeline page beside it
/// (FILE with the extension `.html`).
@MainActor
package struct ExampleTrace {
  let trace: Trace
  /// Where the timeline page goes.
  package let page: URL

  /// Starts tracing; on failure reports why and returns `nil`.
  ///
  /// - Parameters:
  ///   - path: The trace file.
  ///   - program: The program's name, for messages.
  ///   - output: Where the message goes.
  ///   - start: Starts the trace of the program's store at the URL given.
  package static func start(
    path: String, program: String, output: ProgramOutput, _ start: (URL) throws(TraceError) -> Trace
  ) -> ExampleTrace? {
    let url = URL(fileURLWithPath: path)
    do {
      return ExampleTrace(trace: try start(url), page: url.deletingPathExtension().appendingPathExtension("html"))
    } catch {
      output.error("\(program): \(error)")
      return nil
    }
  }

  /// Finishes the trace and writes the page; reports a failure.
  ///
  /// - Returns: 0, or 1 when the trace or the page could not be written.
  package func finish(program: String, output: ProgramOutput) async -> Int32 {
    do {
      try await trace.finish()
      try TraceViewer.writeHTML(trace: trace.url, to: page)
      output.error("\(program): trace written to \(trace.url.path); open \(page.path) to see it")
      return 0
    } catch {
      output.error("\(program): \(error)")
      return 1
    }
  }
}
