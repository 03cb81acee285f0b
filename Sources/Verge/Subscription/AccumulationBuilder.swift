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
  @usableFromInline let memory: AccumulationMemory

  @inlinable
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
  /// - Complexity: One dictionary look-up by the sink's place. Compiled
  ///   in the caller's module for its types: unspecialized, each sink
  ///   looked up four of its types at run time, about 3,800 instructions.
  @inlinable
  public func ifChanged<Value: Equatable>(
    _ select: (State) -> Value,
    file: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> AccumulationSinkIfChanged<Value> {
    let site = AccumulationMemory.Site(file: file, line: line, column: column)
    let value = select(state)
    guard let slot = memory.slots[site] as? AccumulationMemory.Slot<Value> else {
      return AccumulationSinkIfChanged(value: value, changes: memory.start(value, at: site))
    }
    guard slot.last != value else {
      return AccumulationSinkIfChanged(value: nil, changes: slot.changes)
    }
    slot.last = value
    slot.changes += 1
    return AccumulationSinkIfChanged(value: value, changes: slot.changes)
  }
}

/// The memory of every sink of one `accumulate` subscription; touched only
/// by its deliveries, which never overlap.
@usableFromInline
final class AccumulationMemory {
  /// A sink's memory, of any type.
  @usableFromInline
  class AnySlot {
    @usableFromInline init() {}

    /// How many changes the sink has seen, whatever its value's type.
    @usableFromInline var changesSeen: Int { 0 }
  }

  /// One sink's memory between deliveries: the value it saw last, kept as
  /// its own type (found with a class cast, not a dynamic cast from `Any`),
  /// and how many changes it has seen.
  @usableFromInline
  final class Slot<Value>: AnySlot {
    @usableFromInline var last: Value
    @usableFromInline var changes: Int

    @inlinable
    init(last: Value, changes: Int) {
      self.last = last
      self.changes = changes
    }

    @usableFromInline override var changesSeen: Int { changes }
  }

  /// Where a sink is written: the address of its file's name (a literal,
  /// so one address per name in the program) and its line and column,
  /// hashed without forming a `String`.
  @usableFromInline
  struct Site: Hashable {
    @usableFromInline let file: UInt
    @usableFromInline let line: UInt
    @usableFromInline let column: UInt

    @inlinable
    init(file: StaticString, line: UInt, column: UInt) {
      // `#fileID` is always text; a one-character literal passed by hand
      // may be a scalar instead, kept apart from addresses by its low bit.
      self.file =
        file.hasPointerRepresentation
        ? UInt(bitPattern: file.utf8Start) : UInt(file.unicodeScalar.value) << 1 | 1
      self.line = line
      self.column = column
    }
  }

  @usableFromInline var slots: [Site: AnySlot] = [:]

  /// Keeps `value` as the last of the sink at `site`, on its first
  /// delivery or when the sink's value changed type (a sink in generic
  /// code): a change, counted after the site's earlier ones. Returns how
  /// many changes the sink has seen. Out of line: the common delivery,
  /// which finds its slot, stays small enough to be inlined.
  @inlinable @inline(never)
  func start<Value>(_ value: Value, at site: Site) -> Int {
    let changes = (slots[site]?.changesSeen ?? 0) + 1
    slots[site] = Slot(last: value, changes: changes)
    return changes
  }

  @usableFromInline
  init() {}
}

/// One `ifChanged` of an `accumulate` block: runs `do` when its value
/// changed, after skipping as many changes as `dropFirst` says.
public struct AccumulationSinkIfChanged<Value> {
  @usableFromInline let value: Value?
  /// How many changes this sink has seen, this one included.
  @usableFromInline let changes: Int
  @usableFromInline var dropped = 0

  @inlinable
  init(value: Value?, changes: Int) {
    self.value = value
    self.changes = changes
  }

  /// Skips the first `count` changes (the first delivery counts as one).
  ///
  /// - Parameter count: How many changes to skip.
  /// - Returns: The sink.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Self {
    var copy = self
    copy.dropped = count
    return copy
  }

  /// Runs `body` with the new value when it changed and is not dropped.
  ///
  /// - Parameter body: Receives the new value.
  /// - Returns: The sink.
  @inlinable @discardableResult
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
  @inlinable
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
