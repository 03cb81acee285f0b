import VergeNeue

/// What only the method-reducer shape keeps in its ledger.
struct ReducerBooks<State: Sendable>: Sendable {
  /// A mutation the test commits itself, and what it did.
  struct Direct: Sendable {
    let name: String
    let line: UInt
    /// What it did, once committed.
    var change: StateChange<State>?
  }

  /// The test's own commit under way.
  var direct: Direct?
  /// How to cancel each dispatch's task, by origin index.
  var cancels: [Int: @Sendable () -> Void] = [:]
  /// Each dispatch's entry in its timeline, by origin index.
  var runEntries: [Int: Int] = [:]
}

/// The method-reducer half of a `TestStore`: the `ReducerStore` under test
/// and the event observer that attributes every committed mutation to the
/// test's own `commit` or to the `dispatch` whose action committed it.
final class ReducerBackend<Reducer: ReducerType>: ShapeBackend<Reducer>, TestStoreBackend {
  typealias Item = ReducerMutation<Reducer.TargetState>
  typealias Activity = Reducer.TargetActivity
  typealias State = Reducer.TargetState
  typealias Extra = ReducerBooks<Reducer.TargetState>

  let store: ReducerStore<Reducer>
  let ledger = Ledger<Item, Activity, State, Extra>(Extra())
  private let observation: EventObservation

  init(store: ReducerStore<Reducer>) {
    self.store = store
    let ledger = ledger
    let id = ObjectIdentifier(ledger)
    observation = store.observeEvents { event in
      let tag = CommitScope.current.flatMap { $0.ledger == id ? $0 : nil }
      switch event {
      case .committed(let mutation, _, _):
        let change = Self.change(of: event)
        ledger.update { data in
          if let tag, tag.origin == nil, var direct = data.extra.direct, direct.change == nil,
            direct.name == mutation.name, direct.line == mutation.line
          {
            direct.change = change
            data.extra.direct = direct
            return
          }
          data.append(.item(mutation, change), origin: tag?.origin) {
            "committed \(mutation.name)"
          }
        }
      case .activitySent(let sent):
        // Always the reducer's type: `ActionContext.send` takes only it.
        guard let activity = sent as? Activity else { return }
        ledger.update { data in
          data.append(.activity(activity), origin: tag?.origin) { "activity \(Describe.action(activity))" }
        }
      case .actionStarted, .actionFinished:
        break
      }
    }
  }

  override func methods() -> ReducerBackend<Reducer> { self }

  var shape: TestShape { .methods }

  func describe(_ item: Item, quoted: Bool) -> String { quoted ? item.name.debugDescription : item.name }

  var canProduce: Bool { ledger.hasPendingWork }

  var isSettled: Bool { ledger.isSettled }

  /// Nothing to watch: a dispatch's end is an event of its own.
  func watchForIdle() {}

  func timeoutMessage(label: String, timeout: Duration, waitingFor what: String) -> String {
    "\(label): timed out after \(Describe.duration(timeout)) waiting for the \(what)."
  }

  func cancelRunningWork() {
    let cancels = ledger.read { data in
      data.origins.indices.filter { data.origins[$0].pending > 0 }.compactMap { data.extra.cancels[$0] }
    }
    for cancel in cancels { cancel() }
  }

  /// Every running dispatch is an origin: nothing else to report.
  func reportUnattributedWork(context: String, reporter: TestFailureReporter, at location: FailureLocation) {}

  func tearDown() {
    observation.cancel()
  }

  /// The states a `committed` event carries, copied to the heap. Binding a
  /// state takes three slots of its size on the stack in an unoptimized
  /// build (this code runs unspecialized), so each is bound in a function
  /// of its own.
  private static func change(of event: ReducerEvent<State>) -> StateChange<State> {
    StateChange { before, after in
      copyBefore(of: event, to: before)
      copyAfter(of: event, to: after)
    }
  }

  @inline(never)
  private static func copyBefore(of event: ReducerEvent<State>, to destination: UnsafeMutablePointer<State>) {
    guard case .committed(_, let before, _) = event else { fatalError("change(of:) takes a committed event") }
    withUnsafePointer(to: before) { destination.initialize(from: $0, count: 1) }
  }

  @inline(never)
  private static func copyAfter(of event: ReducerEvent<State>, to destination: UnsafeMutablePointer<State>) {
    guard case .committed(_, _, let after) = event else { fatalError("change(of:) takes a committed event") }
    withUnsafePointer(to: after) { destination.initialize(from: $0, count: 1) }
  }

  /// Commits `mutation` as the test's own step.
  ///
  /// - Returns: The state before and after, or `nil` when the store did
  ///   not commit it.
  func commitDirectly(_ mutation: ReducerMutation<State>) -> StateChange<State>? {
    ledger.modify { $0.extra.direct = .init(name: mutation.name, line: mutation.line) }
    CommitScope.$current.withValue(.init(ledger: ObjectIdentifier(ledger), origin: nil)) {
      store.commit { _ in mutation }
    }
    let direct = ledger.modify { data in
      defer { data.extra.direct = nil }
      return data.extra.direct
    }
    return direct?.change
  }

  /// Starts `action` in a task of its own, tagged so that its commits are
  /// attributed to the dispatch `label`.
  func dispatch<Result: Sendable>(
    _ action: ReducerAction<Reducer, Result>, label: String, at location: FailureLocation
  ) -> Task<Result, any Error> {
    let index = ledger.begin({ label }, at: location)
    let name = action.name
    ledger.modify { data in
      data.extra.runEntries[index] = data.origins[index].timeline.append({ "\(name) started" }, status: .running)
    }
    let task = CommitScope.$current.withValue(.init(ledger: ObjectIdentifier(ledger), origin: index)) {
      Task { [store, ledger] in
        do {
          let result = try await store.dispatch { _ in action }
          ledger.update { $0.endDispatch(index, .ended) }
          return result
        } catch {
          ledger.update { $0.endDispatch(index, error is CancellationError ? .cancelled : .failed) }
          throw error
        }
      }
    }
    let skipped = ledger.modify { data -> Bool in
      data.extra.cancels[index] = { task.cancel() }
      return data.origins[index].skipped
    }
    if skipped { task.cancel() }
    return task
  }
}

extension Ledger.Data where Extra == ReducerBooks<State> {
  /// Books the end of the dispatch `index`.
  mutating func endDispatch(_ index: Int, _ status: Timeline.Status) {
    origins[index].pending -= 1
    if let entry = extra.runEntries[index] { origins[index].timeline.mark(entry, status) }
  }
}
