import VergeNeue

/// What a `TestStore` holds of its reducer's shape: its backend, reached
/// typed without a cast.
///
/// `actions()` exists only where `Reducer` is an `ActionReducer`, and the
/// enum-action initializer, the only one for such a reducer, makes an
/// `ActionBackend`, which overrides it; `methods()` likewise for a
/// `ReducerType` and `ReducerBackend`. (A type that were both could not be
/// passed to either initializer: the call would be ambiguous.) Swift has no
/// abstract methods, so the base's bodies, never run, stop the process.
class ShapeBackend<Reducer> {
  /// The enum-action backend.
  func actions() -> ActionBackend<Reducer> where Reducer: ActionReducer {
    fatalError("An ActionReducer's test store holds an ActionBackend, which overrides actions().")
  }

  /// The method-reducer backend.
  func methods() -> ReducerBackend<Reducer> where Reducer: ReducerType {
    fatalError("A ReducerType's test store holds a ReducerBackend, which overrides methods().")
  }
}

/// The part of a `TestStore` that depends on the reducer's shape: the store
/// under test and how its events reach the ledger. `TestStore` runs the
/// shared logic (waiting, receiving, skipping, leftover reporting) against
/// it.
protocol TestStoreBackend: AnyObject {
  /// What the store's own work produces besides activities: an action, or
  /// a mutation.
  associatedtype Item: Sendable
  /// The activities that work sends.
  associatedtype Activity: Sendable
  associatedtype State: Equatable & Sendable
  associatedtype Extra: Sendable

  /// The books.
  var ledger: Ledger<Item, Activity, State, Extra> { get }
  /// Which shape it is, for the words of the failure messages.
  var shape: TestShape { get }
  /// `.tick`, `setPhotos(_:)`: an item in a failure message; `quoted`, as
  /// the test would write it in `receive` (`"setPhotos(_:)"`).
  func describe(_ item: Item, quoted: Bool) -> String

  /// Whether anything runs that could still produce an item.
  var canProduce: Bool { get }
  /// Whether every origin's work has ended (or was skipped) and the store
  /// is at rest.
  var isSettled: Bool { get }
  /// Arranges for the ledger's wakeup to fire when the store comes to rest,
  /// in case no event does.
  func watchForIdle()
  /// `"timed out after 1 s; …"`: the message when `receive` times out
  /// waiting for `what` (`mutation`, `activity`).
  func timeoutMessage(label: String, timeout: Duration, waitingFor what: String) -> String
  /// Cancels the work still running (after the ledger marked what it
  /// skips).
  func cancelRunningWork()
  /// Reports, after the per-origin leftovers, running work no origin
  /// accounts for.
  func reportUnattributedWork(context: String, reporter: TestFailureReporter, at location: FailureLocation)
  /// Stops observing the store.
  func tearDown()
}

/// The two reducer shapes, and the words their failure messages use: an
/// enum-action test store *receives actions* that *effects* send, a
/// method-reducer one *mutations* that *dispatched actions* commit.
enum TestShape: Sendable {
  case actions
  case methods

  /// `action`, `mutation`: what the store's work produces.
  var item: String {
    switch self {
    case .actions: "action"
    case .methods: "mutation"
    }
  }

  /// `received`, `committed`: what happened to it.
  var produced: String {
    switch self {
    case .actions: "received"
    case .methods: "committed"
    }
  }

  /// `skipReceivedActions()`, `skipReceivedMutations()`.
  var skipItemsCall: String {
    switch self {
    case .actions: "skipReceivedActions()"
    case .methods: "skipReceivedMutations()"
    }
  }

  /// The `receive` failure when nothing runs; `activity`: of
  /// `receiveActivity`.
  func nothingRunning(activity: Bool) -> String {
    switch (self, activity) {
    case (.actions, false): "no action was received, and no effect is running that could send one."
    case (.actions, true): "no activity was sent, and no effect is running that could send one."
    case (.methods, false): "no mutation was committed, and no dispatched action is running that could commit one."
    case (.methods, true): "no activity was sent, and no dispatched action is running that could send one."
    }
  }

  /// What joins leftovers to their origin: `sent by effects of`, or for a
  /// method reducer `committed by` (items), `sent by` (activities), `from`
  /// (both).
  func leftoverJoint(items: Bool, activities: Bool) -> String {
    switch self {
    case .actions: "sent by effects of"
    case .methods: !activities ? "committed by" : !items ? "sent by" : "from"
    }
  }

  /// The end-of-test failure for an origin whose work still runs.
  func stillRunning(_ context: String, _ origin: String) -> String {
    switch self {
    case .actions:
      "\(context): an effect started by \(origin) is still running. Receive its actions, or call skipInFlightEffects()."
    case .methods:
      "\(context): \(origin) is still running. Receive its mutations, or call skipInFlightActions()."
    }
  }
}
