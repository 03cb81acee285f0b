/// Checks one change of state against a test's assertion closure and
/// returns the failure message, if any.
///
/// This code runs unspecialized, and an unoptimized build reserves, when a
/// generic function starts, a stack slot for every state-sized temporary it
/// has anywhere, also on branches it does not take. A 64 KiB state must fit
/// a 512 KiB thread with room left for the state's own `==`, so
/// the functions on a passing step's path hold no state-sized temporary:
/// the expected state is drafted on the heap beside a copy of the actual
/// one, the states are compared where they are (see ``StatePair``), and the
/// failure messages, which read copies out, are made in functions of their
/// own.
enum StateAssertion {
  /// - Parameters:
  ///   - label: How the step is named in messages (`send(.increment)`).
  ///   - change: The state before the step and the state it produced.
  ///   - exhaustivity: `.on` compares everything; `.off` only the fields
  ///     the closure assigns.
  ///   - update: The test's closure, or `nil` when it gave none.
  /// - Returns: The failure message, or `nil` when the step is as expected.
  static func check<State: Equatable>(
    _ label: String,
    _ change: StateChange<State>,
    exhaustivity: Exhaustivity,
    update: ((inout State) throws -> Void)?
  ) -> String? {
    guard let update else {
      guard exhaustivity.isOn, !change.isUnchanged else { return nil }
      return undescribed(label, change)
    }
    let draft = change.draft(fromAfter: !exhaustivity.isOn)
    defer {
      draft.deinitialize(count: 1)
      draft.deallocate()
    }
    return verdict(label, draft: &draft.pointee, change, exhaustivity: exhaustivity, update: update)
  }

  /// The rest of `check`, on the draft where it is: `first` the expected
  /// state, `second` the actual one.
  private static func verdict<State: Equatable>(
    _ label: String,
    draft: inout StatePair<State>,
    _ change: StateChange<State>,
    exhaustivity: Exhaustivity,
    update: (inout State) throws -> Void
  ) -> String? {
    do {
      try update(&draft.first)
    } catch {
      return "\(label): the assertion closure threw \(error)."
    }
    if !StatePair.equal(&draft) {
      return unexpected(label, draft: &draft)
    }
    if exhaustivity.isOn && change.isUnchanged {
      return "\(label): the assertion closure expects a change, but the state did not change."
    }
    return nil
  }

  private static func undescribed<State>(_ label: String, _ change: StateChange<State>) -> String {
    "\(label) changed the state, but no assertion closure describes the change:\n"
      + StateDiff.render(expected: change.before, actual: change.after)
  }

  private static func unexpected<State>(_ label: String, draft: inout StatePair<State>) -> String {
    "\(label): the state is not what was expected:\n"
      + StateDiff.render(expected: draft.first, actual: draft.second)
  }
}
