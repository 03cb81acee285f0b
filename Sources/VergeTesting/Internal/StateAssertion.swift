/// Checks one change of state against a test's assertion closure and
/// returns the failure message, if any.
enum StateAssertion {
  /// - Parameters:
  ///   - label: How the step is named in messages (`send(.increment)`).
  ///   - before: The state before the step.
  ///   - after: The state the step produced.
  ///   - exhaustivity: `.on` compares everything; `.off` only the fields
  ///     the closure assigns.
  ///   - update: The test's closure, or `nil` when it gave none.
  /// - Returns: The failure message, or `nil` when the step is as expected.
  static func check<State: Equatable>(
    _ label: String,
    before: State,
    after: State,
    exhaustivity: Exhaustivity,
    update: ((inout State) throws -> Void)?
  ) -> String? {
    guard let update else {
      guard exhaustivity.isOn, before != after else { return nil }
      return "\(label) changed the state, but no assertion closure describes the change:\n"
        + StateDiff.render(expected: before, actual: after)
    }
    var expected = exhaustivity.isOn ? before : after
    do {
      try update(&expected)
    } catch {
      return "\(label): the assertion closure threw \(error)."
    }
    if expected != after {
      return "\(label): the state is not what was expected:\n"
        + StateDiff.render(expected: expected, actual: after)
    }
    if exhaustivity.isOn && before == after {
      return "\(label): the assertion closure expects a change, but the state did not change."
    }
    return nil
  }
}
