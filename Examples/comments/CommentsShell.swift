import ExampleTerminal
import Foundation

/// Runs `comments`: options, then the scripted or the interactive mode.
@MainActor
enum CommentsShell {
  /// Runs the program and returns its exit status.
  static func run(_ arguments: [String]) async -> Int32 {
    let options: CommentsOptions
    do {
      options = try CommentsOptions(arguments)
    } catch {
      printError("comments: \(error)\nTry 'comments --help'.")
      return 2
    }
    if options.showsHelp {
      print(CommentsOptions.usage)
      return 0
    }
    let milliseconds = options.latencyMilliseconds
    let api = FakePhotoAPI(seed: options.seed, failurePercent: options.failurePercent) {
      try await Task.sleep(for: .milliseconds(milliseconds))
    }
    let session = GallerySession(api: api)
    if let script = options.script {
      let commands: [GalleryCommand]
      do {
        commands = try GalleryCommand.parse(script: script)
      } catch {
        printError("comments: \(error)")
        return 2
      }
      for line in await scriptLines(commands, in: session) { print(line) }
      return 0
    }
    await runInteractive(session)
    return 0
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
  /// each answer shows as soon as it is written.
  static func runInteractive(_ session: GallerySession) async {
    show("Verge comments - type ? for help, 'refresh' to load")
    let watcher = session.store.sinkState(dropsFirst: true) { changes in
      changes.ifChanged(\.isLoading) { loading in
        if loading { Task { @MainActor in show("  (loading...)") } }
      }
    }
    prompt()
    for await line in Terminal.lines() {
      if line.trimmingSpaces().isEmpty {
        prompt()
        continue
      }
      let command: GalleryCommand
      do {
        command = try GalleryCommand(parsing: line)
      } catch {
        show("  \(error)")
        prompt()
        continue
      }
      if command == .quit { break }
      if command == .refresh {
        // Not awaited, so a second refresh can cancel the first.
        let task = session.startRefresh()
        Task { @MainActor in
          if case .failure(let error) = await task.result, !(error is CancellationError) {
            show("  error: \(error)")
          } else if !task.isCancelled {
            show("  loaded \(session.photos.count) photos")
          }
          prompt()
        }
        continue
      }
      for output in await session.perform(command) { show("  " + output) }
      prompt()
    }
    watcher.cancel()
    show("bye")
  }

  /// Writes one line of the session.
  private static func show(_ line: String) {
    Terminal.write(line + "\n")
  }

  private static func prompt() {
    Terminal.write("comments> ")
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}

extension GalleryCommand {
  /// The command as typed, for scripted output.
  var echo: String {
    switch self {
    case .refresh: return "refresh"
    case .list: return "list"
    case .open(let number): return "open \(number)"
    case .close: return "close"
    case .post(let text): return "post \(text)"
    case .delete(let number): return "delete \(number)"
    case .help: return "help"
    case .quit: return "quit"
    }
  }
}
