@_spi(Internal) import Verge

/// What a `TestStore` has seen of its store: the sends or dispatches the
/// test started (its *origins*), the work still attributed to each, and the
/// actions or mutations that work produced and the test has not asserted
/// yet.
///
/// Both reducer shapes keep their books here; `Extra` holds what only one
/// shape needs, under the same lock, so one update sees and changes
/// everything at once. Every update wakes the waiting test.
final class Ledger<Item: Sendable, State: Sendable, Extra: Sendable>: Sendable {
  /// One `send` or `dispatch` the test made.
  struct Origin: Sendable {
    /// `send(.load)`, `dispatch(refresh())`.
    let label: String
    let file: StaticString
    let line: UInt
    /// Work attributed to it that has not ended: its own reduction or run,
    /// and every effect it started, transitively.
    var pending = 1
    /// Set by a skip (or the end of the test): its work no longer counts.
    var skipped = false

    /// Whether work attributed to it still counts as running.
    var isRunning: Bool { pending > 0 && !skipped }

    /// ` (from send(.load) at File.swift:12)`.
    var fromClause: String { " (from \(label) at \(Describe.location(file, line)))" }
  }

  /// An action or mutation produced by the store's own work (an effect, a
  /// dispatched action), waiting to be asserted.
  struct Received: Sendable {
    let item: Item
    let before: State
    let after: State
    /// The index of the origin whose work produced it; `nil` when no origin
    /// of this test store's started that work.
    let origin: Int?
  }

  struct Data: Sendable {
    var origins: [Origin] = []
    var received: [Received] = []
    var extra: Extra
  }

  private let data: SharedLock<Data>
  /// Signalled after every update.
  let wakeup = Wakeup()

  init(_ extra: Extra) {
    data = SharedLock(Data(extra: extra))
  }

  /// Changes the books, then wakes the waiting test.
  @discardableResult
  func update<Result>(_ body: (inout Data) -> Result) -> Result {
    let result = data.withLock(body)
    wakeup.signal()
    return result
  }

  /// Changes the books without waking the waiting test: for bookkeeping
  /// no waiter looks at.
  @discardableResult
  func modify<Result>(_ body: (inout Data) -> Result) -> Result {
    data.withLock(body)
  }

  /// Reads the books.
  func read<Result>(_ body: (Data) -> Result) -> Result {
    data.withLock { body($0) }
  }

  /// Records a new origin, with its own reduction or run pending.
  ///
  /// - Returns: Its index.
  func begin(_ label: String, file: StaticString, line: UInt) -> Int {
    update { data in
      data.origins.append(Origin(label: label, file: file, line: line))
      return data.origins.count - 1
    }
  }

  /// A copy of every origin.
  var origins: [Origin] { read(\.origins) }

  /// Whether no origin's work counts as running.
  var isSettled: Bool { read { $0.origins.allSatisfy { !$0.isRunning } } }

  /// Removes and returns the oldest item not asserted yet.
  func popReceived() -> Received? {
    data.withLock { $0.received.isEmpty ? nil : $0.received.removeFirst() }
  }

  /// Removes and returns every item not asserted yet.
  func takeReceived() -> [Received] {
    data.withLock { data in
      defer { data.received = [] }
      return data.received
    }
  }
}
