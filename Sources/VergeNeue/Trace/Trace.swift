import Verge
import Foundation

/// A trace of a store: what it did, written to a file as it runs, for the
/// timeline page (`TraceViewer`) or a replay.
///
/// ```swift
/// let trace = try Trace(store, writingTo: traceURL)
/// store.send(.refresh)
/// // …
/// try await trace.finish()
/// try TraceViewer.writeHTML(trace: traceURL, to: pageURL)
/// ```
///
/// For an `ActionStore` it records each reduced action (its name, its
/// payload, what caused it, how long the reduction took, the state diff it
/// made and the state after it), each effect task's start and end
/// (finished, failed or cancelled) with the action that started it, and
/// each activity an effect sent. For a core `Store` it records each commit
/// (its name, where it was called, its diff, the state after it) and each
/// activity.
///
/// Tracing never changes what the store does. The thread that sends or
/// commits only queues the values involved; diffs and renderings are made
/// and written on a writer queue of the trace's own. Memory and file size
/// are bounded (``TraceOptions``): a full buffer drops its oldest events,
/// a full file keeps its newest half, and a `dropped` record says how many
/// events each time. The file format is JSON Lines, specified in the
/// "Tracing a store" article.
///
/// A store with no trace attached pays nothing for the feature: its sends
/// and commits take the paths they take without it.
///
/// - Complexity: While attached, each reduction or commit keeps the state
///   before it (the store copies what it touches, as with any observer)
///   and queues one event; the writer diffs what changed.
public final class Trace: Sendable {
  /// The format name in a trace file's header line.
  public static let formatName = "verge-trace"
  /// The format version this library writes and reads.
  public static let formatVersion = 1

  private let writer: TraceWriter
  private let detach: SharedLock<(@Sendable () -> Void)?>

  /// The file the trace is written to.
  public let url: URL

  private init(url: URL, header: TraceRecord, options: TraceOptions) throws(TraceError) {
    try options.validate()
    var header = header
    header.format = Self.formatName
    header.version = Self.formatVersion
    header.started = ISO8601DateFormatter().string(from: Date())
    let file = try TraceFile(url: url, header: TraceWriter.encode(header), maximumSize: options.maximumFileSize)
    self.url = url
    writer = TraceWriter(file: file, options: options)
    detach = SharedLock(nil)
  }

  /// Starts tracing an enum-action store into a new file at `url` (an
  /// existing file is replaced).
  ///
  /// Actions that are `Encodable` are also written as JSON, so that the
  /// trace can be replayed (`Recording.init(trace:)`). One trace at a time
  /// per store.
  ///
  /// - Parameters:
  ///   - store: The store to trace.
  ///   - url: The trace file.
  ///   - options: Its bounds.
  /// - Throws: `TraceError.invalidOption` or `TraceError.file`; the store
  ///   is left untraced then.
  public convenience init<Feature: ActionReducer>(
    _ store: ActionStore<Feature>, writingTo url: URL, options: TraceOptions = .init()
  ) throws(TraceError) {
    var header = TraceRecord(kind: "header")
    header.store = "\(type(of: store))"
    header.stateType = Self.typeName(Feature.State.self)
    header.actionType = Self.typeName(Feature.Action.self)
    try self.init(url: url, header: header, options: options)
    let writer = writer
    let rendering = writer.renderer
    let recordsState = options.recordsState
    let hooks = store.engine.traceHooks
    let tracking = SharedLock(Tracking())
    let observation = store.observeLifecycle { event in
      switch event {
      case .reduced(let action, let before, let after, let cause):
        let duration = hooks.lastReductionNanoseconds
        let seq = writer.enqueue { record in
          record.kind = "action"
          record.name = rendering.name(of: action)
          record.payload = rendering.render(action)
          if let encodable = action as? any Encodable { record.action = TraceRecord.Payload(value: encodable) }
          record.cause = Self.cause(cause, rendering)
          record.duration = duration
          record.diff = rendering.diff(before, after)
          if recordsState { record.state = rendering.fields(of: after) }
        }
        tracking.withLock { $0.lastAction = seq }
      case .effectStarted(let run, let origin):
        let originSeq = tracking.withLock { $0.lastAction }
        writer.enqueue { record in
          record.kind = "effectStart"
          record.effect = run.rawValue
          record.origin = rendering.render(origin)
          record.originSeq = originSeq
        }
      case .effectFinished(let run, let error):
        let cancelled = tracking.withLock { $0.cancelled.remove(run.rawValue) != nil }
        writer.enqueue { record in
          record.kind = "effectEnd"
          record.effect = run.rawValue
          if cancelled || error is CancellationError {
            record.outcome = "cancelled"
          } else if let error {
            record.outcome = "failed"
            record.error = rendering.render(error)
          } else {
            record.outcome = "finished"
          }
        }
      case .activitySent(let activity, let run, let origin):
        writer.enqueue { record in
          record.kind = "activity"
          record.name = rendering.name(of: activity)
          record.payload = rendering.render(activity)
          record.effect = run?.rawValue
          record.origin = rendering.render(origin)
        }
      }
    }
    hooks.begin { run in tracking.withLock { _ = $0.cancelled.insert(run.rawValue) } }
    detach.withLock {
      $0 = {
        observation.cancel()
        hooks.end()
      }
    }
  }

  /// Starts tracing a core store's commits and activities into a new file
  /// at `url` (an existing file is replaced).
  ///
  /// The trace adds a commit middleware to the store (`add(middleware:)`),
  /// which stays after `finish()` and then does nothing.
  ///
  /// - Parameters:
  ///   - store: The store to trace.
  ///   - url: The trace file.
  ///   - options: Its bounds.
  /// - Throws: `TraceError.invalidOption` or `TraceError.file`; the store
  ///   is left untraced then.
  public convenience init<State, Activity>(
    _ store: Store<State, Activity>, writingTo url: URL, options: TraceOptions = .init()
  ) throws(TraceError) {
    var header = TraceRecord(kind: "header")
    header.store = "\(type(of: store))"
    header.stateType = Self.typeName(State.self)
    try self.init(url: url, header: header, options: options)
    let writer = writer
    let rendering = writer.renderer
    let recordsState = options.recordsState
    store.add(
      middleware: CommitMiddleware(name: "trace") { [weak writer] before, after, trace in
        guard let writer else { return }
        let after = after
        writer.enqueue { record in
          record.kind = "commit"
          record.name = trace.name.isEmpty ? "\(trace.function)" : trace.name
          record.location = "\(trace.file):\(trace.line)"
          record.diff = rendering.diff(before, after)
          if recordsState { record.state = rendering.fields(of: after) }
        }
      })
    let subscription = store.sinkActivity { activity in
      writer.enqueue { record in
        record.kind = "activity"
        record.name = rendering.name(of: activity)
        record.payload = rendering.render(activity)
      }
    }
    detach.withLock { $0 = { subscription.cancel() } }
  }

  deinit {
    detach.withLock { $0 }?()
    writer.closeSoon()
  }

  /// Waits until every event so far is in the file (for a reader that
  /// opens it while the store runs).
  public func flush() async {
    await writer.flush()
  }

  /// Stops tracing, writes the events still queued and an `end` record,
  /// and closes the file. Calling it again does nothing.
  ///
  /// - Throws: `TraceError.file` when writing the file failed at some
  ///   point (the events after the failure are missing).
  public func finish() async throws(TraceError) {
    detach.withLock { detach in
      defer { detach = nil }
      return detach
    }?()
    if let failure = await writer.close() { throw failure }
  }

  private static func cause<Action>(_ cause: ActionCause<Action>, _ rendering: TraceRendering) -> TraceRecord.Cause {
    switch cause {
    case .send: return .init(kind: "send")
    case .middleware: return .init(kind: "middleware")
    case .effect(let run, let origin): return .init(kind: "effect", effect: run?.rawValue, origin: rendering.render(origin))
    }
  }
}

/// What a trace of an `ActionStore` remembers between events.
private struct Tracking: Sendable {
  /// The sequence number of the last action reduced: the origin of an
  /// effect that starts next.
  var lastAction: Int?
  /// Effect tasks that ended after being cancelled, until their end event.
  var cancelled: Set<UInt64> = []
}

extension Trace {
  /// A type's name as its declaration nests it, without the module:
  /// `InboxFeature.Action`, where `"\(type)"` would say only `Action`, the
  /// same for every enum-action feature.
  static func typeName(_ type: Any.Type) -> String {
    let qualified = String(reflecting: type)
    guard let dot = qualified.firstIndex(of: "."), !qualified[..<dot].contains("<") else { return qualified }
    return String(qualified[qualified.index(after: dot)...])
  }
}
