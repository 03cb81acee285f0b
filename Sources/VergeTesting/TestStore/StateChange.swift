/// One step's change of state: the state before it and the state it
/// produced.
///
/// A reference, so that the books, the step that takes a change from them
/// and its assertion hold no state-sized value on the stack: this code runs
/// unspecialized, where every state-sized temporary takes a slot of its
/// own, and a 64 KiB state must fit a 512 KiB thread (issue 23). Its
/// states are `let`s, which the optimizer reads in place rather than
/// copying them for each use.
final class StateChange<State: Sendable>: Sendable {
  let before: State
  let after: State

  init(before: State, after: State) {
    self.before = before
    self.after = after
  }
}
