/// Async work returned by `ActionReducer.reduce(into:action:)`: it sends
/// further actions, can be cancelled by id, and combines with others.
///
/// ```swift
/// return .run { send in
///   let results = try await api.search(query)
///   send(.searchResponse(results))
/// }
/// .cancellable(id: SearchID(), cancelInFlight: true)
///
/// return .merge(.send(.started), .cancel(id: SearchID()))
/// ```
///
/// An effect carries the reducer's `Activity` type as well as its
/// `Action` type, so the one-off events it sends are checked by the
/// compiler and read with contextual type:
///
/// ```swift
/// func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
///   switch action {
///   case .post(let text):
///     return .activity(.posted(text))     // Activity.posted, inferred
///   }
/// }
/// ```
///
/// A reducer without activities still writes `Effect<Action, Activity>`:
/// its `Activity` is `Never`.
///
/// Effects run as tasks owned by the store and are cancelled when the store
/// goes away. Actions sent by an effect after it was cancelled are dropped,
/// so a cancelled effect leaves no partial state behind it.
///
/// An error thrown by an effect ends it. Catch it with
/// `run(priority:fileID:line:operation:catch:)`, whose handler can send
/// actions; an error no handler catches goes to the store's
/// `onEffectError` (by default written to standard error, see
/// `EffectFailure.log(_:)`), and event observers see it as
/// `effectFailed`. A `CancellationError` is cancellation, not a failure: it
/// is neither caught nor reported.
public struct Effect<Action: Sendable, Activity: Sendable>: Sendable {
  @usableFromInline
  enum Item: Sendable {
    case run(Run)
    case send(Action)
    case cancel(EffectID)
    case activity(Activity)
  }

  @usableFromInline
  struct Run: Sendable {
    /// The task's priority, by its raw value: `TaskPriority` is resilient
    /// (its layout is known only at run time), and holding it would make
    /// every `Item`, and so every effect's handling in a reducer
    /// specialized elsewhere, go through type metadata.
    var priorityValue: UInt8?
    /// The ids the task is marked with: `.cancel(id:)` of any of them
    /// cancels it.
    var ids: [EffectID]
    /// The ids whose running tasks are cancelled before this one starts
    /// (`cancellable(id:cancelInFlight: true)`): some of `ids`, not the
    /// marks a composing function adds to cancel a removed child's tasks.
    var inFlightIDs: [EffectID]
    /// Where the effect was made, for reports of its uncaught error.
    let fileID: StaticString
    let line: UInt
    var operation: @Sendable (Send<Action, Activity>) async throws -> Void

    init(
      priority: TaskPriority?, fileID: StaticString, line: UInt,
      operation: @escaping @Sendable (Send<Action, Activity>) async throws -> Void
    ) {
      self.priorityValue = priority?.rawValue
      self.ids = []
      self.inFlightIDs = []
      self.fileID = fileID
      self.line = line
      self.operation = operation
    }

    /// The same task, with its actions and activities sent through `send`
    /// instead of the `Send` it is started with.
    func sending<Other: Sendable>(
      through send: @escaping @Sendable (Send<Other, Activity>) -> Send<Action, Activity>
    ) -> Effect<Other, Activity>.Run {
      let operation = operation
      var run = Effect<Other, Activity>.Run(priority: nil, fileID: fileID, line: line) { try await operation(send($0)) }
      run.priorityValue = priorityValue
      run.ids = ids
      run.inFlightIDs = inFlightIDs
      return run
    }

    /// The task's priority.
    var priority: TaskPriority? { priorityValue.map(TaskPriority.init(rawValue:)) }
  }

  /// The work, `nil` when there is none: `.none`, the effect most
  /// reductions return, then holds no reference, so making and dropping it
  /// costs nothing.
  @usableFromInline let storage: [Item]?

  @usableFromInline
  init(items: [Item]) {
    storage = items.isEmpty ? nil : items
  }

  @inlinable
  init() {
    storage = nil
  }

  /// The work, in order.
  @inlinable
  var items: [Item] { storage ?? [] }

  /// Whether there is no work.
  @inlinable
  var isNone: Bool {
    if case .none = storage { return true }
    return false
  }

  /// No work.
  @inlinable
  public static var none: Effect { Effect() }

  /// Runs `operation` as a task; it sends actions through the `Send` it
  /// receives.
  ///
  /// An error `operation` throws ends the effect and goes to the store's
  /// `onEffectError`; to turn it into an action instead, use
  /// `run(priority:fileID:line:operation:catch:)`.
  ///
  /// - Parameters:
  ///   - priority: The task's priority.
  ///   - fileID: Where the effect is made, for error reports; leave the default.
  ///   - line: Where the effect is made, for error reports; leave the default.
  ///   - operation: The work.
  /// - Returns: The effect.
  public static func run(
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ operation: @escaping @Sendable (Send<Action, Activity>) async throws -> Void
  ) -> Effect {
    Effect(items: [.run(Run(priority: priority, fileID: fileID, line: line, operation: operation))])
  }

  /// Runs `operation` as a task, and `handler` with the error it throws, if
  /// any; both send actions through the `Send` they receive.
  ///
  /// ```swift
  /// return .run { send in
  ///   send(.loaded(try await api.load()))
  /// } catch: { error, send in
  ///   send(.loadFailed("\(error)"))
  /// }
  /// ```
  ///
  /// Cancellation is not an error: when `operation` throws a
  /// `CancellationError`, `handler` is not called. Once the effect is
  /// cancelled, what either closure sends is dropped.
  ///
  /// - Parameters:
  ///   - priority: The task's priority.
  ///   - fileID: Where the effect is made, for error reports; leave the default.
  ///   - line: Where the effect is made, for error reports; leave the default.
  ///   - operation: The work.
  ///   - handler: Gets the error `operation` threw, and the same `Send`.
  /// - Returns: The effect.
  public static func run(
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: @escaping @Sendable (Send<Action, Activity>) async throws -> Void,
    catch handler: @escaping @Sendable (any Error, Send<Action, Activity>) async -> Void
  ) -> Effect {
    run(priority: priority, fileID: fileID, line: line) { send in
      do {
        try await operation(send)
      } catch let cancellation as CancellationError {
        throw cancellation
      } catch {
        await handler(error, send)
      }
    }
  }

  /// Sends `action` right after the current action is reduced (it is queued
  /// behind it).
  ///
  /// - Parameter action: The action.
  /// - Returns: The effect.
  public static func send(_ action: Action) -> Effect {
    Effect(items: [.send(action)])
  }

  /// Sends a one-off event to the store's activity subscribers
  /// (`sinkActivity`, `activities()`) right after the current action is
  /// reduced.
  ///
  /// ```swift
  /// case .posted(let comment):
  ///   state.comments.append(comment)
  ///   return .activity(.commentPosted(comment.id))
  /// ```
  ///
  /// The activity is of the reducer's `Activity` type: a value of any other
  /// type does not compile.
  ///
  /// - Parameter activity: The event.
  /// - Returns: The effect.
  public static func activity(_ activity: Activity) -> Effect {
    Effect(items: [.activity(activity)])
  }

  /// Cancels the running effects marked with `id`: those marked with a
  /// value of the same type that is `==` to it (`1` and `Int64(1)` are
  /// different ids).
  ///
  /// Ids are scoped to the feature that uses them. In a composed feature
  /// (`ActionReducer.embed`, `forEach`, `ifLet`), each child has ids of its
  /// own: each element of a `forEach` (by its id), each embedded child (by
  /// the place of its state and its feature's type) and each `ifLet` child.
  /// So a row's `.cancel(id: CancelID.timer)` cancels that row's timer
  /// only, not its siblings' timers, nor one of the parent's that is marked
  /// with the same id; and a parent's `.cancel(id:)` cancels only the tasks
  /// its own reduction marked. To stop a child's work, a parent sends the
  /// child the action that stops it (`.send(.row(id: 1, action: .stop))`),
  /// or removes the child, which cancels every effect the child still runs.
  ///
  /// - Parameter id: The effects' id.
  /// - Complexity: A look-up per id; nothing when no marked effect runs.
  /// - Returns: The effect.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(items: [.cancel(EffectID(id))])
  }

  /// Combines effects; they start together, in order.
  ///
  /// - Parameter effects: The effects.
  /// - Returns: One effect that runs them all.
  public static func merge(_ effects: Effect...) -> Effect {
    merge(effects)
  }

  /// Combines effects; they start together, in order.
  ///
  /// - Parameter effects: The effects.
  /// - Returns: One effect that runs them all.
  public static func merge(_ effects: [Effect]) -> Effect {
    Effect(items: effects.flatMap { $0.items })
  }

  /// Combines this effect with another.
  ///
  /// - Parameter other: The other effect.
  /// - Returns: One effect that runs both.
  /// - Complexity: O(1) when either is `.none`.
  @inlinable @inline(__always)
  public func merge(with other: Effect) -> Effect {
    if isNone { return other }
    if other.isNone { return self }
    return concatenated(with: other)
  }

  /// Both effects' work, in order; neither is `.none`.
  @usableFromInline
  func concatenated(with other: Effect) -> Effect {
    Effect(items: items + other.items)
  }

  /// Cancels the effects running under `ids`, then runs `child` and
  /// `parent`; `child`'s own tasks marked with one of `ids` are left out
  /// (a child removed by the reduction that started them starts nothing).
  ///
  /// - Complexity: One allocation; O(`ids`), and O(`child` × `ids`) when
  ///   `child` is not `.none`.
  @inlinable
  static func cancelling<IDs: Collection>(_ ids: IDs, child: Effect, parent: Effect) -> Effect
  where IDs.Element: Hashable & Sendable {
    var items: [Item] = []
    items.reserveCapacity(ids.count + (child.storage?.count ?? 0) + (parent.storage?.count ?? 0))
    for id in ids { items.append(.cancel(EffectID(id))) }
    if !child.isNone { items += child.itemsDroppingRuns(cancelledBy: items) }
    if let parentItems = parent.storage { items += parentItems }
    return Effect(items: items)
  }

  /// The items, without the tasks that `cancellations` (`.cancel` items)
  /// would cancel.
  @usableFromInline
  func itemsDroppingRuns(cancelledBy cancellations: [Item]) -> [Item] {
    let ids = Set(cancellations.compactMap { item -> EffectID? in
      if case .cancel(let id) = item { id } else { nil }
    })
    return items.filter { item in
      guard case .run(let run) = item else { return true }
      return !run.ids.contains(where: ids.contains)
    }
  }

  /// Marks this effect's tasks with `id`, so `.cancel(id:)` cancels them.
  ///
  /// An id belongs to the feature whose reduction returned the effect: in a
  /// composed feature, `.cancel(id:)` reaches the tasks its own reduction
  /// marked, never those of a child or a sibling marked with an equal id
  /// (see `cancel(id:)`).
  ///
  /// - Parameters:
  ///   - id: The id.
  ///   - cancelInFlight: Cancel the effects already running with `id`
  ///     before starting this one (a "latest wins" search, for example);
  ///     effects running under the task's other ids are left alone.
  /// - Returns: The marked effect.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    let id = EffectID(id)
    return Effect(
      items: items.map { item in
        guard case .run(var run) = item else { return item }
        run.ids.append(id)
        if cancelInFlight { run.inFlightIDs.append(id) }
        return .run(run)
      })
  }
}

/// Sends actions from an effect back into its store.
///
/// ```swift
/// .run { send in send(.loaded(try await api.load())) }
/// ```
///
/// Once the effect's task is cancelled, sending does nothing.
public struct Send<Action: Sendable, Activity: Sendable>: Sendable {
  let deliver: @Sendable (Action) -> Void
  let deliverActivity: @Sendable (Activity) -> Void

  /// Sends `action` to the store (queued like any other send).
  ///
  /// - Parameter action: The action.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }

  /// Sends a one-off event to the store's activity subscribers
  /// (`sinkActivity`, `activities()`), at once.
  ///
  /// ```swift
  /// .run { send in
  ///   try await api.post(comment)
  ///   send(activity: .commentPosted)
  /// }
  /// ```
  ///
  /// The activity is of the reducer's `Activity` type: a value of any other
  /// type does not compile. Once the effect's task is cancelled, sending
  /// does nothing.
  ///
  /// - Parameter activity: The event.
  public func callAsFunction(activity: Activity) {
    guard !Task.isCancelled else { return }
    deliverActivity(activity)
  }
}
