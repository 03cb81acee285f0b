/// A hook that sees every commit of a store: the state before, the state
/// after (which it may adjust), and where the commit came from.
///
/// Middlewares run in order, synchronously, inside the commit, only for
/// commits that wrote something. Use them for logging, for invariants that
/// must always hold, and for persistence:
///
/// ```swift
/// let clamp = CommitMiddleware<Counter>(name: "clamp") { _, state, _ in
///   state.count = min(max(state.count, 0), 99)
/// }
/// let store = Store<Counter, Never>(initialState: .init(), middlewares: [clamp, .logging { line in log(line) }])
/// ```
///
/// A middleware runs while the store is locked: it must not use the store
/// (commit, read `state`, subscribe), or it traps as a misuse.
///
/// - Complexity: With any middleware installed the store keeps the previous
///   state for each commit, so a commit copies the collections it touches.
public struct CommitMiddleware<State>: Sendable {
  /// A name for diagnostics.
  public let name: String
  @usableFromInline let body: @Sendable (_ before: State, _ after: inout State, _ trace: CommitTrace) -> Void

  /// Creates a middleware.
  ///
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - body: Receives the state before the commit, the state after it
  ///     (mutable), and the commit's trace.
  public init(
    name: String,
    _ body: @escaping @Sendable (_ before: State, _ after: inout State, _ trace: CommitTrace) -> Void
  ) {
    self.name = name
    self.body = body
  }
}

extension CommitMiddleware {
  /// A middleware that adjusts each commit's new state, given the change
  /// the commit made; Verge's `StoreMiddleware.modify`.
  ///
  /// ```swift
  /// store.add(middleware: .modify { modifying, _, current in
  ///   current.ifChanged(\.name).do { _ in modifying.edits += 1 }
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - body: Receives the new state (mutable), the commit's trace, and the
  ///     change from the state before the commit to the new state.
  /// - Returns: The middleware.
  public static func modify(
    name: String = "modify",
    _ body: @escaping @Sendable (_ modifying: inout State, _ trace: CommitTrace, _ current: Changes<State>) -> Void
  ) -> CommitMiddleware {
    CommitMiddleware(name: name) { before, after, trace in
      body(&after, trace, Changes(previous: before, current: after))
    }
  }

  /// A middleware that describes each commit in one line and hands it to
  /// `sink`: the commit's name and location and the top-level properties
  /// whose description changed.
  ///
  /// ```swift
  /// .logging { line in logger.info("\(line)") }
  /// // commit increment (Counter.swift:12): count 1 → 2
  /// ```
  ///
  /// - Parameters:
  ///   - maximumValueLength: Longer value descriptions are cut to this length.
  ///   - sink: Receives each line, synchronously inside the commit.
  /// - Returns: The middleware.
  public static func logging(
    maximumValueLength: Int = 60,
    sink: @escaping @Sendable (String) -> Void
  ) -> CommitMiddleware {
    CommitMiddleware(name: "logging") { before, after, trace in
      let changes = StateDescription.differences(before, after, maximumValueLength: maximumValueLength)
      let summary = changes.isEmpty ? "no visible change" : changes.joined(separator: ", ")
      sink("commit \(trace): \(summary)")
    }
  }
}

/// Field-by-field descriptions of values, for logs and diffs; shared with
/// the sibling targets of this package.
package enum StateDescription {
  /// `label old → new` for each top-level property whose description differs
  /// (the whole values when they are not structs or classes).
  ///
  /// - Parameters:
  ///   - old: The value before.
  ///   - new: The value after.
  ///   - maximumValueLength: Longer descriptions are cut to this length.
  /// - Returns: One line per difference; empty when the descriptions match.
  package static func differences<Value>(_ old: Value, _ new: Value, maximumValueLength: Int) -> [String] {
    let oldFields = fields(of: old)
    let newFields = fields(of: new)
    guard let oldFields, let newFields, oldFields.count == newFields.count else {
      let a = clip("\(old)", maximumValueLength)
      let b = clip("\(new)", maximumValueLength)
      return a == b ? [] : ["\(a) → \(b)"]
    }
    var result: [String] = []
    for (o, n) in zip(oldFields, newFields) where o.value != n.value {
      result.append("\(o.label) \(clip(o.value, maximumValueLength)) → \(clip(n.value, maximumValueLength))")
    }
    return result
  }

  private static func fields<Value>(of value: Value) -> [(label: String, value: String)]? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .class, !mirror.children.isEmpty else {
      return nil
    }
    return mirror.children.enumerated().map { index, child in
      (child.label ?? "#\(index)", String(describing: child.value))
    }
  }

  private static func clip(_ text: String, _ length: Int) -> String {
    text.count <= length ? text : String(text.prefix(max(length - 1, 0))) + "…"
  }
}
