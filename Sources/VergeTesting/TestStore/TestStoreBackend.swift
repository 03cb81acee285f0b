/// The part of a `TestStore` that depends on the reducer's shape: the store
/// under test, how its events reach the ledger, and the words its failure
/// messages use. `TestStore` runs the shared logic (waiting, receiving,
/// skipping, leftover reporting) against it.
protocol TestStoreBackend: AnyObject, Sendable {
  /// What the store's own work produces besides activities: an action, or
  /// a mutation.
  associatedtype Item: Sendable
  /// The activities that work sends.
  associatedtype Activity: Sendable
  associatedtype State: Equatable & Sendable
  associatedtype Extra: Sendable

  /// The books.
  var ledger: Ledger<Item, Activity, State, Extra> { get }
  /// The words of the failure messages.
  var vocabulary: Vocabulary<Item> { get }

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
  /// Removes and returns problems to report at once (errors effects threw).
  func takeProblems() -> [String]
  /// Cancels the work still running (after the ledger marked what it
  /// skips).
  func cancelRunningWork()
  /// Reports, after the per-origin leftovers, running work no origin
  /// accounts for.
  func reportUnattributedWork(context: String, reporter: TestFailureReporter, at location: FailureLocation)
  /// Stops observing the store.
  func tearDown()
}

/// The words a reducer shape's failure messages use, so both shapes share
/// one implementation of each message.
struct Vocabulary<Item>: Sendable {
  /// `received action(s)`: before a send, for items not asserted.
  let unassertedItems: String
  /// `skipReceivedActions()`.
  let skipItemsCall: String
  /// `received action`: in "the next received action is …".
  let nextItem: String
  /// The `receive` failure when nothing runs.
  let nothingRunning: String
  /// The `receiveActivity` failure when nothing runs.
  let nothingRunningForActivity: String
  /// `action(s) received but not asserted`: at the end of a test.
  let leftoverItems: String
  /// `sent by effects of`: joins leftover items to their origin.
  let leftoverOrigin: String
  /// `sent by effects of`: joins leftover activities to their origin.
  let activityOrigin: String
  /// `sent by effects of`: joins a mix of leftover items and activities to
  /// their origin.
  let mixedOrigin: String
  /// The end-of-test failure for an origin whose work still runs.
  let stillRunning: @Sendable (_ context: String, _ origin: String) -> String
  /// An item in a list (`.tick`, `setPhotos(_:)`).
  let describe: @Sendable (Item) -> String
  /// An item in "the next … is …" (`.tick`, `"setPhotos(_:)"`).
  let describeNext: @Sendable (Item) -> String
}
