/// What a subscriber receives: the new state and the one before it.
///
/// Member lookup reads the new state, so `changes.count` is
/// `changes.current.count`. The `ifChanged` family runs a closure only when
/// the selected part differs from the previous state's, and always on a first
/// delivery, where there is no previous state:
///
/// ```swift
/// store.sinkState { changes in
///   changes.ifChanged(\.count) { count in render(count) }
///   changes.ifChanged(\.title, \.subtitle) { title, subtitle in relabel(title, subtitle) }
/// }
/// .storeWhileSourceActive()
/// ```
@dynamicMemberLookup
public struct Changes<State> {
  /// The state before the change, or `nil` on a first delivery.
  public let previous: State?
  /// The state after the change.
  public let current: State
  #if DEBUG
    /// Whether `previous` holds a state, known without looking at it: an
    /// unoptimized build copies an optional state to test it. (Not kept in
    /// optimized builds, where testing it is free and a larger change costs
    /// each subscriber's delivery a few instructions more.)
    @usableFromInline let previousIsPresent: Bool
  #endif
  /// The version of `current`: the store's (or derived value's) `version`
  /// when it held this state. It grows with every change; two changes with
  /// equal versions from one source carry the same state.
  public let version: UInt64

  /// Creates a change from `previous` to `current`.
  ///
  /// - Parameters:
  ///   - previous: The state before the change; `nil` for a first delivery.
  ///   - current: The state after the change.
  ///   - version: The version of `current`; see `version`.
  public init(previous: State?, current: State, version: UInt64 = 0) {
    #if DEBUG
      previousIsPresent = previous != nil
    #endif
    self.previous = previous
    self.current = current
    self.version = version
  }

  /// Copies both states from memory, so that the caller holds no copy of
  /// its own: the delivery engine boxes changes of large states this way
  /// (a 64 KiB state must work on a 512 KiB thread).
  @inlinable
  init(copying previous: UnsafePointer<State>?, _ current: UnsafePointer<State>, version: UInt64) {
    #if DEBUG
      previousIsPresent = previous != nil
    #endif
    if let previous {
      self.previous = previous.pointee
    } else {
      self.previous = nil
    }
    self.current = current.pointee
    self.version = version
  }

  #if DEBUG
    /// Builds a change in place at `target`, copying both states from
    /// memory: what `init(copying:_:version:)` does, for an unoptimized
    /// build, which would keep the change and each state read in stack slots
    /// of their own. Both states go from memory to memory.
    @inlinable
    static func initialize(
      _ target: UnsafeMutablePointer<Changes>, previous: UnsafePointer<State>?, current: UnsafePointer<State>,
      version: UInt64
    ) {
      let raw = UnsafeMutableRawPointer(target)
      (raw + MemoryLayout<Changes>.offset(of: \.version)!).assumingMemoryBound(to: UInt64.self)
        .initialize(to: version)
      (raw + MemoryLayout<Changes>.offset(of: \.current)!).assumingMemoryBound(to: State.self)
        .initialize(from: current, count: 1)
      (raw + MemoryLayout<Changes>.offset(of: \.previousIsPresent)!).assumingMemoryBound(to: Bool.self)
        .initialize(to: previous != nil)
      let previousField = (raw + MemoryLayout<Changes>.offset(of: \.previous)!).assumingMemoryBound(to: State?.self)
      if let previous {
        // `.some` built in place rather than through a state-sized
        // temporary: an optional is its payload followed, when the payload
        // has no spare bit patterns, by tag bytes that are zero for `.some`
        // (Swift's layout of single-payload enums).
        UnsafeMutableRawPointer(previousField).initializeMemory(as: State.self, from: previous, count: 1)
        let tagBytes = MemoryLayout<State?>.size - MemoryLayout<State>.size
        if tagBytes > 0 {
          (UnsafeMutableRawPointer(previousField) + MemoryLayout<State>.size)
            .initializeMemory(as: UInt8.self, repeating: 0, count: tagBytes)
        }
      } else {
        initializeToNil(previousField)
      }
    }

    /// Stores `nil`, in a frame of its own: an unoptimized build reserves
    /// a state-sized slot for the `nil` it builds, in whichever function
    /// builds it.
    @usableFromInline @inline(never)
    static func initializeToNil(_ field: UnsafeMutablePointer<State?>) {
      field.initialize(to: nil)
    }
  #endif

  /// Whether there is a state before the change (`false` on a first
  /// delivery).
  @inlinable
  var hasPrevious: Bool {
    #if DEBUG
      previousIsPresent
    #else
      previous != nil
    #endif
  }

  /// The value at `keyPath` in the previous state, which must be there.
  ///
  /// An unoptimized build unwraps an optional state through two copies on
  /// the stack (128 KiB for a 64 KiB state, in every subscriber that asks
  /// `ifChanged(\.count)`); there, a stored property is read from the
  /// optional's bytes instead, where its payload lies.
  @inlinable
  func previousValue<Value>(at keyPath: KeyPath<State, Value>) -> Value {
    #if DEBUG
      if let offset = MemoryLayout<State>.offset(of: keyPath) {
        return withUnsafeBytes(of: previous) { $0.load(fromByteOffset: offset, as: Value.self) }
      }
    #endif
    return previousValueUnwrapping(at: keyPath)
  }

  /// `previousValue(at:)` through the optional, in a frame of its own: an
  /// unoptimized build reserves the stack slots of a function's every
  /// temporary, also when it returns before reaching them.
  @inlinable
  func previousValueUnwrapping<Value>(at keyPath: KeyPath<State, Value>) -> Value {
    previous.unsafelyUnwrapped[keyPath: keyPath]
  }

  /// Reads a property of the new state.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    current[keyPath: keyPath]
  }

  /// Whether the value at `keyPath` differs from the previous state's.
  ///
  /// - Parameter keyPath: The part of the state to compare.
  /// - Returns: `true` when it differs, and on a first delivery.
  /// - Complexity: One read at `keyPath` of each state and one `==`.
  @inlinable
  public func hasChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
    guard hasPrevious else { return true }
    return previousValue(at: keyPath) != current[keyPath: keyPath]
  }

  /// Whether the value at `keyPath` differs from the state before the
  /// change; Verge's name, kept for the reduce hook of ``StateType``
  /// (`current.hasModified(\.items)`). The same test as `hasChanged(_:)`.
  ///
  /// Verge answered from the key paths a commit wrote; this compares the
  /// values, so writing an equal value does not count, which is what a hook
  /// that recomputes derived fields wants.
  ///
  /// - Parameter keyPath: The part of the state to compare.
  /// - Returns: `true` when it differs, and when there is no previous state.
  /// - Complexity: One read at `keyPath` of each state and one `==`.
  @inlinable
  public func hasModified<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
    hasChanged(keyPath)
  }

  /// The value that `select` picks from the new state, when it differs from
  /// the previous state's; Verge's `takeIfChanged`.
  ///
  /// ```swift
  /// if let count = changes.takeIfChanged({ $0.count }) { render(count) }
  /// ```
  ///
  /// - Parameter select: Picks the value from a state.
  /// - Returns: The new value, or `nil` when it did not change; always the
  ///   value on a first delivery.
  /// - Complexity: Two calls of `select` and one `==`.
  @inlinable
  public func takeIfChanged<Value: Equatable>(_ select: (State) throws -> Value) rethrows -> Value? {
    let new = try select(current)
    if let previous, try select(previous) == new { return nil }
    return new
  }

  /// The value that `select` picks from the new state, when `areEqual`
  /// says it differs from the previous state's.
  ///
  /// - Parameters:
  ///   - select: Picks the value from a state.
  ///   - areEqual: Decides whether two picked values are the same.
  /// - Returns: The new value, or `nil` when it did not change; always the
  ///   value on a first delivery.
  @inlinable
  public func takeIfChanged<Value>(
    _ select: (State) throws -> Value,
    _ areEqual: (Value, Value) throws -> Bool
  ) rethrows -> Value? {
    let new = try select(current)
    if let previous, try areEqual(select(previous), new) { return nil }
    return new
  }

  /// The value at `keyPath`, to act on only if it changed: Verge's
  /// `ifChanged(\.count).do { }` form.
  ///
  /// ```swift
  /// changes.ifChanged(\.count).do { count in render(count) }
  /// ```
  ///
  /// - Parameter keyPath: The part of the state to compare.
  /// - Returns: The value when it changed (or on a first delivery), for `do`.
  @inlinable
  public func ifChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> IfChangedBox<Value> {
    let new = current[keyPath: keyPath]
    return IfChangedBox(hasPrevious && previousValue(at: keyPath) == new ? nil : new)
  }

  /// Whether the value that `select` picks differs from the previous state's.
  ///
  /// - Parameters:
  ///   - select: Picks the part of the state to compare.
  ///   - areEqual: Decides whether two picked values are the same.
  /// - Returns: `true` when they differ, and on a first delivery.
  @inlinable
  public func hasChanged<Value>(
    _ select: (State) throws -> Value,
    comparedBy areEqual: (Value, Value) throws -> Bool
  ) rethrows -> Bool {
    guard let previous else { return true }
    return try !areEqual(select(previous), select(current))
  }

  /// Runs `body` with the value at `keyPath` when it changed.
  ///
  /// ```swift
  /// changes.ifChanged(\.count) { count in label = "\(count)" }
  /// changes.ifChanged(\.rows[index]) { row in render(row) }
  /// ```
  ///
  /// The one-key-path form of `ifChanged(_:then:)` for several key paths.
  /// It is compiled in the caller's module for its types, so a key path
  /// written at the call site is read like the property itself, without
  /// forming a key path object or projecting it at run time.
  ///
  /// - Parameters:
  ///   - keyPath: The part of the state to compare.
  ///   - body: Receives the new value.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  /// - Complexity: One read at `keyPath` of each state and one `==`.
  @inlinable @discardableResult
  public func ifChanged<Value: Equatable, Result>(
    _ keyPath: KeyPath<State, Value>,
    then body: (Value) throws -> Result
  ) rethrows -> Result? {
    let new = current[keyPath: keyPath]
    if hasPrevious, previousValue(at: keyPath) == new { return nil }
    return try body(new)
  }

  /// Runs `body` with the values at `keyPaths` when any of them changed.
  ///
  /// ```swift
  /// changes.ifChanged(\.count) { count in label = "\(count)" }
  /// changes.ifChanged(\.width, \.height) { width, height in resize(width, height) }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPaths: One or more parts of the state to compare.
  ///   - body: Receives the new values, in the order of `keyPaths`.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<each Value: Equatable, Result>(
    _ keyPaths: repeat KeyPath<State, each Value>,
    then body: (repeat each Value) throws -> Result
  ) rethrows -> Result? {
    if hasPrevious {
      var changed = false
      for keyPath in repeat each keyPaths {
        changed = changed || previousValue(at: keyPath) != current[keyPath: keyPath]
      }
      guard changed else { return nil }
    }
    return try body(repeat current[keyPath: each keyPaths])
  }

  /// The two-key-path form of `ifChanged(_:then:)`, compiled in the
  /// caller's module for its types: each key path written at the call site
  /// is read like the property itself. (The form for any number of key
  /// paths runs unspecialized, forming each value's type at run time: about
  /// 3,500 instructions more per call for two key paths.)
  ///
  /// - Parameters:
  ///   - first: The first part of the state to compare.
  ///   - second: The second part of the state to compare.
  ///   - body: Receives the new values.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<First: Equatable, Second: Equatable, Result>(
    _ first: KeyPath<State, First>,
    _ second: KeyPath<State, Second>,
    then body: (First, Second) throws -> Result
  ) rethrows -> Result? {
    let newFirst = current[keyPath: first]
    let newSecond = current[keyPath: second]
    if hasPrevious, previousValue(at: first) == newFirst, previousValue(at: second) == newSecond {
      return nil
    }
    return try body(newFirst, newSecond)
  }

  /// The three-key-path form of `ifChanged(_:then:)`, compiled in the
  /// caller's module for its types; see the two-key-path form.
  ///
  /// - Parameters:
  ///   - first: The first part of the state to compare.
  ///   - second: The second part of the state to compare.
  ///   - third: The third part of the state to compare.
  ///   - body: Receives the new values.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<First: Equatable, Second: Equatable, Third: Equatable, Result>(
    _ first: KeyPath<State, First>,
    _ second: KeyPath<State, Second>,
    _ third: KeyPath<State, Third>,
    then body: (First, Second, Third) throws -> Result
  ) rethrows -> Result? {
    let newFirst = current[keyPath: first]
    let newSecond = current[keyPath: second]
    let newThird = current[keyPath: third]
    if hasPrevious, previousValue(at: first) == newFirst, previousValue(at: second) == newSecond,
      previousValue(at: third) == newThird
    {
      return nil
    }
    return try body(newFirst, newSecond, newThird)
  }

  /// Runs `body` when the value that `select` picks changed.
  ///
  /// ```swift
  /// changes.ifChanged({ $0.rows[index] }) { row in render(row) }
  /// ```
  ///
  /// The one-value form of `ifChanged(_:_:)` for tuples, compiled in the
  /// caller's module for its types.
  ///
  /// - Parameters:
  ///   - select: Picks the value from a state.
  ///   - body: Receives the value picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  /// - Complexity: Two calls of `select` and one `==`.
  @inlinable @discardableResult
  public func ifChanged<Value: Equatable, Result>(
    _ select: (State) throws -> Value,
    _ body: (Value) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous, try select(previous) == new { return nil }
    return try body(new)
  }

  /// Runs `body` when the values that `select` picks changed, compared with
  /// `==` element by element.
  ///
  /// ```swift
  /// changes.ifChanged({ ($0.firstName, $0.lastName) }) { first, last in greet(first, last) }
  /// ```
  ///
  /// - Parameters:
  ///   - select: Picks one value or a tuple of values from a state.
  ///   - body: Receives the values picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<each Value: Equatable, Result>(
    _ select: (State) throws -> (repeat each Value),
    _ body: (repeat each Value) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      var changed = false
      for (a, b) in repeat (each old, each new) {
        changed = changed || a != b
      }
      guard changed else { return nil }
    }
    return try body(repeat each new)
  }

  /// The two-value form of `ifChanged(_:_:)` for tuples, compiled in the
  /// caller's module for its types. (The form for any number of values
  /// runs unspecialized, forming each value's type at run time: about 600
  /// instructions more per call for two values.)
  ///
  /// - Parameters:
  ///   - select: Picks two values from a state.
  ///   - body: Receives the values picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<First: Equatable, Second: Equatable, Result>(
    _ select: (State) throws -> (First, Second),
    _ body: (First, Second) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 else { return nil }
    }
    return try body(new.0, new.1)
  }

  /// The three-value form of `ifChanged(_:_:)` for tuples; see the
  /// two-value form.
  ///
  /// - Parameters:
  ///   - select: Picks three values from a state.
  ///   - body: Receives the values picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<First: Equatable, Second: Equatable, Third: Equatable, Result>(
    _ select: (State) throws -> (First, Second, Third),
    _ body: (First, Second, Third) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous {
      let old = try select(previous)
      guard old.0 != new.0 || old.1 != new.1 || old.2 != new.2 else { return nil }
    }
    return try body(new.0, new.1, new.2)
  }

  /// Runs `body` when the value that `select` picks changed, as decided by
  /// `areEqual`; for values that are not `Equatable`, tuples, or a looser
  /// test. The comparer takes no label, as in Verge's documentation:
  ///
  /// ```swift
  /// changes.ifChanged({ ($0.name, $0.count) }, ==) { name, count in show(name, count) }
  /// ```
  ///
  /// - Parameters:
  ///   - select: Picks the value (often a tuple) from a state.
  ///   - areEqual: Decides whether two picked values are the same.
  ///   - body: Receives the value picked from the new state.
  /// - Returns: What `body` returned, or `nil` when nothing changed.
  @inlinable @discardableResult
  public func ifChanged<Value, Result>(
    _ select: (State) throws -> Value,
    _ areEqual: (Value, Value) throws -> Bool,
    _ body: (Value) throws -> Result
  ) rethrows -> Result? {
    let new = try select(current)
    if let previous, try areEqual(select(previous), new) { return nil }
    return try body(new)
  }

  /// A change of a part of this state, for handing a slice to a child.
  ///
  /// - Parameter keyPath: The part to keep.
  /// - Returns: The change of that part alone.
  @inlinable
  public func map<Value>(_ keyPath: KeyPath<State, Value>) -> Changes<Value> {
    Changes<Value>(
      previous: previous?[keyPath: keyPath], current: current[keyPath: keyPath], version: version)
  }
}

extension Changes: Sendable where State: Sendable {}
extension Changes: Equatable where State: Equatable {}

extension Changes: CustomStringConvertible {
  /// The previous and current states.
  public var description: String {
    "Changes(previous: \(previous.map { "\($0)" } ?? "nil"), current: \(current))"
  }
}
