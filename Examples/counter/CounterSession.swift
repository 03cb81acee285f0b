/// The shell's state: the three counters side by side, the style in use,
/// the delayed increments still pending, and the recent log lines.
@MainActor
final class CounterSession {
  /// The counters, one per style, each with its own store.
  let models: [CounterStyle: any CounterModel]
  /// The lines the logging middlewares wrote, for all styles.
  let log: LogBuffer
  /// The style that receives commands.
  private(set) var style: CounterStyle
  private var pending: [CounterStyle: [Pending]] = [:]
  /// The last message for the user (a refusal, for example).
  private(set) var notice: String?

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - style: The style to start with.
  ///   - counts: The count each style starts from (restored from a file).
  ///   - delay: How long "later" waits.
  init(style: CounterStyle = .free, counts: SavedCounts = SavedCounts(), delay: @escaping Delay) {
    let log = LogBuffer(capacity: 5)
    self.log = log
    self.style = style
    models = [
      .free: FreeCommitCounter(initialState: Counter(count: counts.free), delay: delay, log: log),
      .method: MethodReducerCounter(initialState: Counter(count: counts.method), delay: delay, log: log),
      .action: EnumActionCounter(initialState: Counter(count: counts.action), delay: delay, log: log),
    ]
  }

  /// The counter that receives commands.
  var current: any CounterModel { models[style]! }

  /// Runs one command.
  ///
  /// - Parameter command: The command; `help` and `quit` are the caller's.
  func perform(_ command: Command) async {
    notice = nil
    let model = current
    switch command {
    case .increment: model.increment()
    case .decrement: model.decrement()
    case .incrementLater:
      // Every style replaces the waiting increment with the new one, so the
      // old ones end at once; waiting for them keeps the pending count exact.
      let replaced = pending[style] ?? []
      pending[style] = [model.incrementLater()]
      for wait in replaced { await wait() }
    case .cancel:
      model.cancelIncrementLater()
      for wait in pending.removeValue(forKey: style) ?? [] { await wait() }
    case .wait: await settle()
    case .undo: if !model.undo() { notice = "nothing to undo" }
    case .redo: if !model.redo() { notice = "nothing to redo" }
    case .nextStyle: style = style.next
    case .style(let chosen): style = chosen
    case .help, .quit: break
    }
  }

  /// Waits until every delayed increment started so far, in every style,
  /// landed or was cancelled.
  func settle() async {
    let waiting = pending.values.flatMap { $0 }
    pending = [:]
    for wait in waiting { await wait() }
  }

  /// One line describing the current counter: style, count, what is pending.
  var statusLine: String {
    let model = current
    var line = "\(style.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))count: \(model.count)"
    let waiting = model.pendingIncrements
    if waiting > 0 { line += "  (+\(waiting) pending)" }
    if let notice { line += "  [\(notice)]" }
    return line
  }
}
