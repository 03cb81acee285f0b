/// Checks one change of state against a test's assertion closure and
/// returns the failure message, if any.
enum StateAssertion {
  /// The expected state is drafted on the heap, and the states are read
  /// where `change` keeps them: this code runs unspecialized, where every
  /// state-sized temporary takes a slot of its own on the stack, and a
  /// 64 KiB state must fit a 512 KiB thread (issue 23) with room left for
  /// the state's own `==`.
  ///
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
      guard exhaustivity.isOn, change.before != change.after else { return nil }
      return "\(label) changed the state, but no assertion closure describes the change:\n"
        + StateDiff.render(expected: change.before, actual: change.after)
    }
    let expected = UnsafeMutablePointer<State>.allocate(capacity: 1)
    // Copied from where the state is (`initialize(to:)` would pass it
    // through a temporary on the stack).
    if exhaustivity.isOn {
      withUnsafePointer(to: change.before) { expected.initialize(from: $0, count: 1) }
    } else {
      withUnsafePointer(to: change.after) { expected.initialize(from: $0, count: 1) }
    }
    defer {
      expected.deinitialize(count: 1)
      expected.deallocate()
    }
    return verdict(label, expected: &expected.pointee, change, exhaustivity: exhaustivity, update: update)
  }

  /// The rest of `check`, on the draft where it is: passed `inout`, it is
  /// compared without a copy.
  private static func verdict<State: Equatable>(
    _ label: String,
    expected: inout State,
    _ change: StateChange<State>,
    exhaustivity: Exhaustivity,
    update: (inout State) throws -> Void
  ) -> String? {
    do {
      try update(&expected)
    } catch {
      return "\(label): the assertion closure threw \(error)."
    }
    if expected != change.after {
      return "\(label): the state is not what was expected:\n"
        + StateDiff.render(expected: expected, actual: change.after)
    }
    if exhaustivity.isOn && change.before == change.after {
      return "\(label): the assertion closure expects a change, but the state did not change."
    }
    return nil
  }
}
