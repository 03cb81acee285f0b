/// One step's change of state: the state before it and the state it
/// produced.
///
/// A reference whose states live on the heap, so that the books, the step
/// that takes a change from them and its assertion hold no state-sized
/// value on the stack: this code runs unspecialized, and in an unoptimized
/// build every state-sized temporary takes a slot of its own, yet a 64 KiB
/// state must fit a 512 KiB thread with room left for the state's own `==`.
///
/// `@unchecked Sendable`: the states are written once, in `init`, and only
/// read afterwards; `State` is `Sendable`.
final class StateChange<State: Sendable>: @unchecked Sendable {
  /// `before` first, `after` second.
  private let states: UnsafeMutablePointer<StatePair<State>>

  /// A change whose states `initialize` writes to the two (uninitialized)
  /// addresses it is given: `before`, then `after`.
  init(initializing initialize: (_ before: UnsafeMutablePointer<State>, _ after: UnsafeMutablePointer<State>) -> Void) {
    states = .allocate(capacity: 1)
    initialize(StatePair.field(states, second: false), StatePair.field(states, second: true))
  }

  deinit {
    states.deinitialize(count: 1)
    states.deallocate()
  }

  /// The state before the step (a copy).
  var before: State { states.pointee.first }

  /// The state the step produced (a copy).
  var after: State { states.pointee.second }

  /// A draft of the expected state on the heap: `first` a copy of the
  /// state before the step (or after it, when `fromAfter` is true) for the
  /// test's closure to change, `second` a copy of the state after it.
  func draft(fromAfter: Bool) -> UnsafeMutablePointer<StatePair<State>> {
    let draft = UnsafeMutablePointer<StatePair<State>>.allocate(capacity: 1)
    let source = StatePair.field(states, second: fromAfter)
    StatePair.initialize(draft, first: source, second: StatePair.field(states, second: true))
    return draft
  }
}

extension StateChange where State: Equatable {
  /// Whether the step left the state as it was.
  var isUnchanged: Bool { StatePair.equal(&states.pointee) }
}

/// Two states side by side, so that they can be compared in place: an
/// unoptimized build copies a state read out of storage (a `pointee`, a
/// class's stored property, even one of two `inout` arguments) into a
/// temporary before passing it to `==`, but not the stored properties of a
/// struct a method is called on.
struct StatePair<State> {
  var first: State
  var second: State

  /// Initializes the pair at `pair` with copies of the states at `first`
  /// and `second`, without a temporary on the stack.
  static func initialize(_ pair: UnsafeMutablePointer<Self>, first: UnsafePointer<State>, second: UnsafePointer<State>) {
    field(pair, second: false).initialize(from: first, count: 1)
    field(pair, second: true).initialize(from: second, count: 1)
  }

  /// The address of `first` (or of `second`) in the pair at `pair`, which
  /// may not be initialized yet.
  ///
  /// A struct's stored properties are laid out in order, each at the next
  /// offset its alignment allows, so `second` starts a stride after
  /// `first` (or, for an empty `State`, where `first` does). Debug builds
  /// check this against `MemoryLayout.offset(of:)`, which forms a key path
  /// on every call and cost a step 60,000 instructions in release.
  static func field(_ pair: UnsafeMutablePointer<Self>, second: Bool) -> UnsafeMutablePointer<State> {
    let offset = second && MemoryLayout<State>.size > 0 ? MemoryLayout<State>.stride : 0
    assert(offset == MemoryLayout<Self>.offset(of: second ? \Self.second : \Self.first))
    return (UnsafeMutableRawPointer(pair) + offset).assumingMemoryBound(to: State.self)
  }
}

extension StatePair where State: Equatable {
  static func equal(_ pair: inout Self) -> Bool { pair.areEqual() }

  private func areEqual() -> Bool { first == second }
}
