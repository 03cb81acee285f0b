import ExampleTerminal
import Foundation
import VergeNeue

/// Runs `comments`: options, then the scripted or the interactive mode.
@MainActor
enum CommentsShell {
  /// Runs the program and returns its exit status.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - output: Where the scripted output and the messages go.
  static func run(_ arguments: [String], output: ProgramOutput = .standard) async -> Int32 {
    let options: CommentsOptions
    do {
      options = try CommentsOptions(arguments)
    } catch {
      output.error("comments: \(error)\nTry 'comments --help'.")
      return 2
    }
    if options.showsHelp {
      output.line(CommentsOptions.usage)
      return 0
    }
    // The script is checked before the state file is opened, so a refused
    // script leaves the file as it was.
    var commands: [GalleryCommand]?
    if let script = options.script {
      do {
        commands = try GalleryCommand.parse(script: script)
      } catch {
        output.error("comments: \(error)")
        return 2
      }
    }
    let milliseconds = options.latencyMilliseconds
    let api = FakePhotoAPI(
      seed: options.seed, failurePercent: options.failurePercent, photoCount: options.photoCount,
      latency: clockLatency(.milliseconds(milliseconds)))
    let session = GallerySession(api: api)
    var stateFile: GalleryStateFile?
    if let path = options.stateFile {
      do {
        stateFile = try GalleryStateFile(path: path, session: session, api: api)
      } catch {
        output.error("comments: \(error)")
        return 1
      }
    }
    if let refusal = stateFile?.refusal { output.error("comments: \(refusal)") }
    var trace: ExampleTrace?
    if let path = options.tracePath {
      trace = ExampleTrace.start(path: path, program: "comments", output: output) { url throws(TraceError) in
        try Trace(session.store, writingTo: url)
      }
      if trace == nil { return 1 }
    }
    if let commands {
      for line in await scriptLines(commands, in: session) { output.line(line) }
    } else {
      await runInteractive(session)
    }
    if let trace {
      // Leaving a session ends the work still running (a refresh waiting
      // for the server), as it does without a trace; the trace records it
      // as cancelled. A script has waited for each command already.
      if commands == nil { session.store.cancelAllEffects() }
      await session.store.waitUntilIdle()
      if await trace.finish(program: "comments", output: output) != 0 { return 1 }
    }
    guard let stateFile else { return 0 }
    do {
      try await stateFile.finish()
      return 0
    } catch {
      output.error("comments: could not save the gallery to \(stateFile.url.path): \(error)")
      return 1
    }
  }

  /// Scripted output: each command echoed, then its result lines indented.
  static func scriptLines(_ commands: [GalleryCommand], in session: GallerySession) async -> [String] {
    var lines: [String] = []
    for command in commands {
      if command == .quit { break }
      if command == .help { continue }
      lines.append("> \(command.echo)")
      lines += await session.perform(command).map { "  " + $0 }
    }
    return lines
  }

  /// One command per line from standard input until `quit` or end of input.
  ///
  /// Its input and output go through `Terminal`, never through stdio, so
  /// each answer shows as soon as it is written. A refresh runs in the
  /// background while the session goes on: its answer comes when it ends,
  /// on a line of its own (see `Console`); a refresh cancelled by a later
  /// one leaves the answer to that one.
  static func runInteractive(_ session: GallerySession) async {
    let console = Console()
    console.show("Verge comments - type ? for help, 'refresh' to load")
    console.prompt()
    for await line in Terminal.lines() {
      console.lineRead()
      if line.trimmingSpaces().isEmpty {
        console.prompt()
        continue
      }
      let command: GalleryCommand
      do {
        command = try GalleryCommand(parsing: line)
      } catch {
        console.show("  \(error)")
        console.prompt()
        continue
      }
      if command == .quit { break }
      if command == .refresh {
        let cancelsOne = session.store.state.isLoading
        console.show(cancelsOne ? "  (loading...; the refresh already running is cancelled)" : "  (loading...)")
        // Not awaited, so a second refresh can cancel the first.
        let task = session.startRefresh()
        let number = console.startRefresh()
        Task { @MainActor in
          await task.finish()
          guard console.isLatestRefresh(number) else { return }  // a later refresh answers
          if let error = session.store.state.lastError {
            console.show("  error: \(error)")
          } else {
            console.show("  loaded \(session.photos.count) photos")
          }
          console.prompt()
        }
        console.prompt()
        continue
      }
      for output in await session.perform(command) { console.show("  " + output) }
      console.prompt()
    }
    console.end()
    console.show("bye")
  }
}

extension GalleryCommand {
  /// The command as typed, for scripted output.
  var echo: String {
    switch self {
    case .refresh: return "refresh"
    case .list(let page): return page == 1 ? "list" : "list \(page)"
    case .open(let number): return "open \(number)"
    case .close: return "close"
    case .post(let text): return "post \(text)"
    case .delete(let number): return "delete \(number)"
    case .help: return "help"
    case .quit: return "quit"
    }
  }
}
