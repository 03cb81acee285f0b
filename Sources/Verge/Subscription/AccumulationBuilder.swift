/// What an `accumulate` block receives for one delivery: `ifChanged` starts
/// a sink that remembers, from one delivery to the next, the value it
/// selected, so that its `do` runs only when that value changed.
///
/// ```swift
/// store.accumulate { state in
///   state.ifChanged(\.count).do { count in label.text = "\(count)" }
///   state.ifChanged(\.name).dropFirst().do { name in title = name }
/// }
/// .storeWhileSourceActive()
/// ```
///
/// Each sink is told apart by where it is written (file, line and column),
/// so one inside an `if` keeps its memory while the branch is not taken.
public final class AccumulationBuilder<State> {
  /// The state of this delivery.
  public let state: State
  private let memory: AccumulationMemory

  init(state: State, memory: AccumulationMemory) {
    self.state = state
    self.memory = memory
  }

  /// Starts a sink on the value that `select` picks; add `do` to act on
  /// it when it changed (and on the first delivery).
  ///
  /// - Parameters:
  ///   - select: Picks the value from the state, a key path or a closure.
  ///   - file: Where the sink is written; leave the default.
  ///   - line: Where the sink is written; leave the default.
  ///   - column: Where the sink is written; leave the default.
  /// - Returns: The sink, for `dropFirst(_:)` and `do(_:)`.
  public func ifChanged<Value: Equatable>(
    _ select: (State) -> Value,
    file: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> AccumulationSinkIfChanged<Value> {
    let site = AccumulationMemory.Site(file: "\(file)", line: line, column: column)
    let value = select(state)
    var slot = memory.slots[site]
    let changed = (slot?.last as? Value).map { $0 != value } ?? true
    if changed {
      slot = AccumulationMemory.Slot(last: value, changes: (slot?.changes ?? 0) + 1)
      memory.slots[site] = slot
    }
    return AccumulationSinkIfChanged(value: changed ? value : nil, changes: slot?.changes ?? 0)
  }
}

/// The memory of every sink of one `accumulate` subscription; touched only
/// by its deliveries, which never overlap.
final class AccumulationMemory {
  /// One sink's memory between deliveries.
  struct Slot {
    var last: Any
    var changes: Int
  }

  /// Where a sink is written.
  struct Site: Hashable {
    let file: String
    let line: UInt
    let column: UInt
  }

  var slots: [Site: Slot] = [:]
}

/// One `ifChanged` of an `accumulate` block: runs `do` when its value
/// changed, after skipping as many changes as `dropFirst` says.
public struct AccumulationSinkIfChanged<Value> {
  private let value: Value?
  /// How many changes this sink has seen, this one included.
  private let changes: Int
  private var dropped = 0

  init(value: Value?, changes: Int) {
    self.value = value
    self.changes = changes
  }

  /// Skips the first `count` changes (the first delivery counts as one).
  ///
  /// - Parameter count: How many changes to skip.
  /// - Returns: The sink.
  public func dropFirst(_ count: Int = 1) -> Self {
    var copy = self
    copy.dropped = count
    return copy
  }

  /// Runs `body` with the new value when it changed and is not dropped.
  ///
  /// - Parameter body: Receives the new value.
  /// - Returns: The sink.
  @discardableResult
  public func `do`(_ body: (Value) -> Void) -> Self {
    if let value, changes > dropped { body(value) }
    return self
  }
}

extension ReadableStore {
  /// Subscribes with a block of `ifChanged` sinks, each remembering its
  /// own last value: Verge's `accumulate`. Where `sinkState`'s `ifChanged`
  /// compares with the previous state, a sink here compares with the value
  /// it saw last, and can skip its first changes (`dropFirst`).
  ///
  /// ```swift
  /// store.accumulate { state in
  ///   state.ifChanged(\.count).do { count in label.text = "\(count)" }
  ///   state.ifChanged(\.name).dropFirst().do { name in title = name }
  /// }
  /// .storeWhileSourceActive()
  /// ```
  ///
  /// The block runs with the current state at once, then on every change,
  /// with the ordering and isolation rules of `sinkState`.
  ///
  /// - Parameters:
  ///   - queue: Where to run `block` from nonisolated code.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - block: Starts the sinks for one delivery.
  /// - Returns: The subscription's token.
  public func accumulate(
    queue: DeliveryQueue = .committingThread,
    isolation: isolated (any Actor)? = #isolation,
    _ block: @escaping (AccumulationBuilder<State>) -> Void
  ) -> StoreSubscription {
    let memory = AccumulationMemory()
    return sinkState(queue: queue, isolation: isolation) { changes in
      block(AccumulationBuilder(state: changes.current, memory: memory))
    }
  }
}
