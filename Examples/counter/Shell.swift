import Dispatch
import ExampleTerminal
import Foundation
import VergeNeue

/// Runs `counter`: parses the command line, then the scripted or the
/// interactive mode. Everything it prints goes through here.
@MainActor
enum Shell {
  /// Runs the program.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - output: Where the scripted output and the messages go.
  /// - Returns: The exit status.
  static func run(_ arguments: [String], output: ProgramOutput = .standard) async -> Int32 {
    let options: Options
    do {
      options = try Options(arguments)
    } catch {
      output.error("counter: \(error)\nTry 'counter --help'.")
      return 2
    }
    if options.showsHelp {
      output.line(Options.usage)
      return 0
    }
    // The script is checked before the state file is opened, so a refused
    // script leaves the file as it was.
    var commands: [Command]?
    if let script = options.script {
      do {
        commands = try Command.parse(script: script)
      } catch {
        output.error("counter: \(error)")
        return 2
      }
    }
    var stateFile: CounterStateFile?
    if let path = options.stateFile {
      do {
        stateFile = try CounterStateFile(path: path)
      } catch {
        output.error("counter: \(error)")
        return 1
      }
    }
    if let refusal = stateFile?.refusal { output.error("counter: \(refusal)") }
    let milliseconds = options.delayMilliseconds
    let session = CounterSession(style: options.style, counts: stateFile?.counts ?? SavedCounts()) {
      try await Task.sleep(for: .milliseconds(milliseconds))
    }
    stateFile?.follow(session)
    var trace: ExampleTrace?
    if let path = options.tracePath {
      trace = ExampleTrace.start(path: path, program: "counter", output: output) { url throws(TraceError) in try session.trace(to: url) }
      if trace == nil { return 1 }
    }
    if let commands {
      for line in await scriptLines(commands, in: session) { output.line(line) }
    } else {
      await runInteractive(session, message: stateFile?.refusal)
    }
    let traced = await trace?.finish(program: "counter", output: output) ?? 0
    return max(await save(stateFile, output: output), traced)
  }

  /// Writes the counts to the state file, if there is one, before leaving.
  ///
  /// - Returns: 0, or 1 when the write failed (reported on standard error).
  static func save(_ stateFile: CounterStateFile?, output: ProgramOutput) async -> Int32 {
    guard let stateFile else { return 0 }
    do {
      try await stateFile.finish()
      return 0
    } catch {
      output.error("counter: could not save the counts to \(stateFile.url.path): \(error)")
      return 1
    }
  }

  /// The scripted output: one line per command, `<command> <status>`.
  ///
  /// `help` prints nothing and `quit` ends the script.
  static func scriptLines(_ commands: [Command], in session: CounterSession) async -> [String] {
    var lines: [String] = []
    for command in commands {
      if command == .quit { break }
      if command == .help { continue }
      await session.perform(command)
      lines.append(command.word.padding(toLength: 8, withPad: " ", startingAt: 0) + session.statusLine)
    }
    await session.settleByCancelling()
    return lines
  }

  /// The terminal session: one command per line until `quit` or end of input.
  ///
  /// Its input and output go through `Terminal`, never through stdio, so
  /// each screen shows as soon as it is drawn.
  ///
  /// - Parameters:
  ///   - session: The session.
  ///   - message: Shown under the first screen (a refused state file).
  static func runInteractive(_ session: CounterSession, message: String? = nil) async {
    let screen = Screen(session: session, clears: Terminal.isInteractive)
    // A change the session did not draw yet (a delayed increment landing)
    // redraws from here; see `Screen.redraw()`.
    let subscriptions = session.models.values.map { model in
      model.observe { _ in Task { @MainActor in screen.redraw() } }
    }
    screen.draw(message: message)
    for await line in Terminal.lines() {
      screen.lineRead()
      let word = line.trimmingCharacters(in: .whitespaces)
      if word.isEmpty {
        screen.draw()
        continue
      }
      guard let command = Command(word) else {
        screen.draw(message: "unknown command '\(word)'; type ? for help")
        continue
      }
      if command == .quit { break }
      if command == .help {
        screen.draw(message: "commands:\n" + Command.helpText)
        continue
      }
      await session.perform(command)
      screen.draw()
    }
    for subscription in subscriptions { subscription.cancel() }
    await session.settleByCancelling()
    Terminal.write("bye\n")
  }
}

extension CounterSession {
  /// Cancels the delayed increments of every style and waits for them to end.
  func settleByCancelling() async {
    for model in models.values { model.cancelIncrementLater() }
    await settle()
  }
}

/// Draws the interactive screen within 80 columns.
///
/// Each line typed is answered by one `draw`; a change that lands between
/// commands (a delayed increment) by one `redraw`. Neither draws a screen
/// that is already showing: a command whose change a subscription's
/// `redraw` already showed is not drawn twice (with piped input every
/// drawn screen stays in the output), and a `redraw` after the command's
/// own `draw` shows nothing new.
@MainActor
final class Screen {
  private let session: CounterSession
  private let clears: Bool
  private var message: String?
  /// The text of the last screen written.
  private var shown: String?
  /// Whether a `redraw` wrote a screen since the last line was read.
  private var redrewSinceLine = false

  init(session: CounterSession, clears: Bool) {
    self.session = session
    self.clears = clears
  }

  /// Notes that a line of input was read: the next `draw` answers it.
  func lineRead() {
    redrewSinceLine = false
  }

  /// Draws the answer to a line of input, with an optional message under
  /// the state (a message from before is dropped); nothing when a `redraw`
  /// since the line was read already shows exactly this screen.
  func draw(message: String? = nil) {
    self.message = message
    let screen = render()
    if redrewSinceLine && screen == shown { return }
    write(screen)
  }

  /// Redraws after a change from a subscription, keeping the message on
  /// screen (the help stays up while a delayed increment lands); nothing
  /// when the screen already shows the change.
  func redraw() {
    let screen = render()
    guard screen != shown else { return }
    write(screen)
    redrewSinceLine = true
  }

  private func write(_ screen: String) {
    shown = screen
    Terminal.write(screen)
  }

  /// The whole screen: the state, the recent log, the notice and message,
  /// and the prompt.
  private func render() -> String {
    var out = clears ? "\u{1B}[2J\u{1B}[H" : "\n"
    out += "Verge counter - \(session.style.title)\n"
    out += String(repeating: "-", count: 60) + "\n"
    for style in CounterStyle.allCases {
      let model = session.models[style]!
      let marker = style == session.style ? ">" : " "
      var line = "\(marker) \(style.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))"
      line += "count: \(model.count)"
      if model.pendingIncrements > 0 { line += "  (+\(model.pendingIncrements) pending)" }
      line += "   undo \(model.undoCount) / redo \(model.redoCount)"
      out += line + "\n"
    }
    out += "\nrecent log:\n"
    let recent = session.log.recent
    out += recent.isEmpty ? "  (nothing yet)\n" : recent.map { "  " + Screen.fit($0, 76) + "\n" }.joined()
    if let notice = session.notice { out += "\n\(notice)\n" }
    if let message = self.message { out += "\n\(message)\n" }
    out += "\n+ - later cancel undo redo style free method action ? quit\n> "
    return out
  }

  /// Cuts a line to `width` characters.
  static func fit(_ line: String, _ width: Int) -> String {
    line.count <= width ? line : String(line.prefix(width - 1)) + "…"
  }
}
