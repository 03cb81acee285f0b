/// One step's change of state: the state before it and the state it
/// produced, checked once against the test's assertion closure.
///
/// A reference whose states live on the heap, so that the books, the step
/// that takes a change from them and its assertion hold no state-sized
/// value on the stack: this code runs unspecialized, and in an unoptimized
/// build every state-sized temporary takes a slot of its own, yet a 64 KiB
/// state must fit a 512 KiB thread with room left for the state's own `==`.
///
/// Each state is copied once, into this change; the check then works where
/// the states are. With exhaustivity on, the test's closure mutates the
/// state from before the step in place into the expected one (a change is
/// checked once, so nothing needs it afterwards), which a copy-on-write
/// field the closure writes then changes without copying.
///
/// `@unchecked Sendable`: the states are written in `init`, and afterwards
/// only by the check of the one step that took the change from the books,
/// on the test's task; `State` is `Sendable`.
final class StateChange<State: Sendable>: @unchecked Sendable {
  /// `first` the state before the step (then the expected state, once a
  /// check drafted it there), `second` the state after it. Checked where
  /// it is, with `StatePair.verdict(_:_:exhaustive:update:)`.
  let states: UnsafeMutablePointer<StatePair<State>>
  /// Where `second` is in `states`.
  private let after: UnsafeMutablePointer<State>

  /// A change whose states `initialize` writes to the two (uninitialized)
  /// addresses it is given: `before`, then `after`.
  ///
  /// A struct's stored properties are laid out in order, each at the next
  /// offset its alignment allows, so `first` is where the pair is and
  /// `second` a stride after it (or, for an empty `State`, where `first`
  /// is). Debug builds check this against `MemoryLayout.offset(of:)`, which
  /// forms a key path on every call and cost a step 60,000 instructions in
  /// release.
  init(initializing initialize: (_ before: UnsafeMutablePointer<State>, _ after: UnsafeMutablePointer<State>) -> Void) {
    states = .allocate(capacity: 1)
    let before = UnsafeMutableRawPointer(states).assumingMemoryBound(to: State.self)
    after = MemoryLayout<State>.size > 0 ? before + 1 : before
    assert(
      MemoryLayout<StatePair<State>>.offset(of: \.first) == 0
        && MemoryLayout<StatePair<State>>.offset(of: \.second) == UnsafeMutableRawPointer(after) - UnsafeMutableRawPointer(before))
    initialize(before, after)
  }

  deinit {
    states.deinitialize(count: 1)
    states.deallocate()
  }

  /// Writes a copy of the state after the step over the state before it,
  /// for a partial check: the test's closure then changes only the fields
  /// it assigns.
  func draftFromAfter() {
    let before = UnsafeMutableRawPointer(states).assumingMemoryBound(to: State.self)
    before.deinitialize(count: 1)
    before.initialize(from: after, count: 1)
  }
}

/// Two states side by side, so that they can be compared in place: an
/// unoptimized build copies a state read out of storage (a `pointee`, a
/// class's stored property, even one of two `inout` arguments) into a
/// temporary before passing it to `==`, but not the stored properties of a
/// struct a method is called on.
///
/// The functions on a passing step's path hold no state-sized temporary
/// (an unoptimized build reserves, when a generic function starts, a stack
/// slot for every state-sized temporary it has anywhere, also on branches
/// it does not take); the failure messages, which read copies out, are
/// made in a function of their own.
struct StatePair<State> {
  var first: State
  var second: State

  /// The field-by-field difference, `first` as the expected state.
  @inline(never)
  static func diff(_ pair: inout Self) -> String {
    StateDiff.render(expected: pair.first, actual: pair.second)
  }
}

extension StatePair where State: Equatable {
  /// Checks a step, on its states where they are, against the test's
  /// closure and returns the failure message, if any.
  ///
  /// Exhaustive, the closure mutates the state from before the step in
  /// place (`first`), and the result must equal the state after it
  /// (`second`), which must differ from the state before; without a
  /// closure the state must not have changed. Partial, `first` is a copy
  /// of the state after the step (`StateChange.draftFromAfter()`), so only
  /// the fields the closure assigns are checked. Either way `first` is the
  /// expected state afterwards: an exhaustive check runs at most once, and
  /// before any partial one.
  ///
  /// - Parameters:
  ///   - label: How the step is named in messages (`send(.increment)`).
  ///   - pair: The step's states.
  ///   - exhaustive: Whether everything is compared, or only what the
  ///     closure assigns.
  ///   - update: The test's closure, or `nil` when it gave none.
  /// - Returns: The failure message, or `nil` when the step is as expected.
  static func verdict(
    _ label: @autoclosure () -> String, _ pair: inout Self, exhaustive: Bool, update: ((inout State) throws -> Void)?
  ) -> String? {
    guard let update else {
      guard exhaustive, !pair.areEqual() else { return nil }
      return "\(label()) changed the state, but no assertion closure describes the change:\n" + diff(&pair)
    }
    let unchanged = exhaustive && pair.areEqual()
    do {
      try update(&pair.first)
    } catch {
      return "\(label()): the assertion closure threw \(error)."
    }
    if !pair.areEqual() {
      return "\(label()): the state is not what was expected:\n" + diff(&pair)
    }
    if unchanged {
      return "\(label()): the assertion closure expects a change, but the state did not change."
    }
    return nil
  }

  private func areEqual() -> Bool { first == second }
}
