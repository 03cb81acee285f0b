import VergeNeue

/// What only the method-reducer shape keeps in its ledger.
struct ReducerBooks<State: Sendable>: Sendable {
  /// A mutation the test commits itself, and what it did.
  struct Direct: Sendable {
    let name: String
    let line: UInt
    var before: State?
    var after: State?
  }

  /// The test's own commit under way.
  var direct: Direct?
  /// How to cancel each dispatch's task, by origin index.
  var cancels: [Int: @Sendable () -> Void] = [:]
}

/// The method-reducer half of a `TestStore`: the `ReducerStore` under test
/// and the event observer that attributes every committed mutation to the
/// test's own `commit` or to the `dispatch` whose action committed it.
final class ReducerBackend<Reducer: ReducerType>: TestStoreBackend {
  typealias Item = ReducerMutation<Reducer.TargetState>
  typealias State = Reducer.TargetState
  typealias Extra = ReducerBooks<Reducer.TargetState>

  let store: ReducerStore<Reducer>
  let ledger = Ledger<Item, State, Extra>(Extra())
  private let observation: EventObservation

  init(store: ReducerStore<Reducer>) {
    self.store = store
    let ledger = ledger
    let id = ObjectIdentifier(ledger)
    observation = store.observeEvents { event in
      guard case .committed(let mutation, let before, let after) = event else { return }
      let tag = CommitScope.current.flatMap { $0.ledger == id ? $0 : nil }
      ledger.update { data in
        if let tag, tag.origin == nil, var direct = data.extra.direct, direct.after == nil,
          direct.name == mutation.name, direct.line == mutation.line
        {
          direct.before = before
          direct.after = after
          data.extra.direct = direct
          return
        }
        data.received.append(.init(item: mutation, before: before, after: after, origin: tag?.origin))
      }
    }
  }

  var vocabulary: Vocabulary<Item> {
    Vocabulary(
      unassertedItems: "committed mutation(s)",
      skipItemsCall: "skipReceivedMutations()",
      nextItem: "committed mutation",
      nothingRunning: "no mutation was committed, and no dispatched action is running that could commit one.",
      leftoverItems: "mutation(s) committed but not asserted",
      leftoverOrigin: "committed by",
      stillRunning: { context, origin in
        "\(context): \(origin) is still running. Receive its mutations, or call skipInFlightActions()."
      },
      describe: { $0.name },
      describeNext: { $0.name.debugDescription })
  }

  var canProduce: Bool { ledger.read { $0.origins.contains { $0.pending > 0 } } }

  var isSettled: Bool { ledger.isSettled }

  /// Nothing to watch: a dispatch's end is an event of its own.
  func watchForIdle() {}

  func timeoutMessage(label: String, timeout: Duration) -> String {
    "\(label): timed out after \(Describe.duration(timeout)) waiting for the mutation."
  }

  /// Dispatched actions report their errors through their handle.
  func takeProblems() -> [String] { [] }

  func cancelRunningWork(markSkipped: Bool) {
    let cancels = ledger.update { data -> [@Sendable () -> Void] in
      var cancels: [@Sendable () -> Void] = []
      for index in data.origins.indices where data.origins[index].pending > 0 {
        if let cancel = data.extra.cancels[index] { cancels.append(cancel) }
        if markSkipped { data.origins[index].skipped = true }
      }
      return cancels
    }
    for cancel in cancels { cancel() }
  }

  /// Every running dispatch is an origin: nothing else to report.
  func reportUnattributedWork(context: String, reporter: TestFailureReporter, file: StaticString, line: UInt) {}

  func tearDown() {
    observation.cancel()
  }

  /// Commits `mutation` as the test's own step.
  ///
  /// - Returns: The state before and after, or `nil` when the store did
  ///   not commit it.
  func commitDirectly(_ mutation: ReducerMutation<State>) -> (before: State, after: State)? {
    ledger.modify { $0.extra.direct = .init(name: mutation.name, line: mutation.line) }
    CommitScope.$current.withValue(.init(ledger: ObjectIdentifier(ledger), origin: nil)) {
      store.commit { _ in mutation }
    }
    let direct = ledger.modify { data in
      defer { data.extra.direct = nil }
      return data.extra.direct
    }
    guard let before = direct?.before, let after = direct?.after else { return nil }
    return (before, after)
  }

  /// Starts `action` in a task of its own, tagged so that its commits are
  /// attributed to the dispatch `label`.
  func dispatch<Result: Sendable>(
    _ action: ReducerAction<Reducer, Result>, label: String, file: StaticString, line: UInt
  ) -> Task<Result, any Error> {
    let index = ledger.begin(label, file: file, line: line)
    let task = CommitScope.$current.withValue(.init(ledger: ObjectIdentifier(ledger), origin: index)) {
      Task { [store, ledger] in
        defer { ledger.update { $0.origins[index].pending -= 1 } }
        return try await store.dispatch { _ in action }
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
