/// One derived value's pipeline as its source's hub runs it: what it reads,
/// the last output it published, and the derived value's core to publish to.
///
/// Each kind of pipeline is a final subclass whose `update` is a function
/// without context, written in `@inlinable` code so that it is specialized
/// for the input and output types in the caller's module: the hub calls it
/// directly with the entry, and it calls the user's closure and compares
/// with `==` inline, with no closure in between. Called only serially (see
/// `Derived`).
///
/// The input arrives as the address of the source's state where the delivery
/// holds it, and an output is compared and published from where it is: a
/// state or output of 64 KiB then costs the update no copy of its own on
/// the stack (a 64 KiB state must work on a 512 KiB thread).
@usableFromInline
class PipelineEntry<Input: Sendable, Output: Sendable>: DerivedHubEntry {
  /// The derived value's core; set once, before the entry joins its hub.
  @usableFromInline @exclusivity(unchecked) final var target: StateCore<Output, Never>?
  /// The last output published, compared with each new one without taking
  /// the derived value's lock. Kept only for outputs that are not large
  /// (`StateCore.isLarge`): a large output is compared with the derived
  /// value's own copy, in place, under its lock, so that it is neither
  /// stored twice nor compared twice.
  @usableFromInline @exclusivity(unchecked) final var last: Output?

  @inlinable
  override init(update: @escaping (DerivedHubEntry, UnsafeRawPointer) -> Void) {
    super.init(update: update)
  }

  /// The first output, computed when the derived value is made, and
  /// remembered as the last one.
  @usableFromInline
  func start(_ input: UnsafePointer<Input>) -> Output {
    fatalError("Verge: PipelineEntry.start is implemented by each kind")
  }

  @usableFromInline
  override func sourceEnded() {
    target?.end()
  }

  /// Remembers the first output as the last one published.
  @inlinable
  final func remember(_ output: Output) {
    if !StateCore<Output, Never>.isLarge { last = output }
  }

  /// Publishes the output at `output` unless it is `==` the last one.
  @inlinable @inline(__always)
  final func publish(ifChanged output: UnsafePointer<Output>) where Output: Equatable {
    if StateCore<Output, Never>.isLarge {
      target?.publishLarge(output) { areEqualInPlace($0, $1) }
      return
    }
    publishSmall(output, unlessSame: ==)
  }

  /// Publishes the output at `output` unless `areEqual` says it is the same
  /// as the last one.
  @inlinable @inline(__always)
  final func publish(_ output: UnsafePointer<Output>, unlessSame areEqual: (Output, Output) -> Bool) {
    if StateCore<Output, Never>.isLarge {
      target?.publishLarge(output) { areEqual($0.pointee, $1.pointee) }
      return
    }
    publishSmall(output, unlessSame: areEqual)
  }

  /// `publish(_:unlessSame:)` for an output that is not large, in a
  /// function of its own: an unoptimized build reserves stack slots for all
  /// of a function's temporaries, also those of a path it does not take
  /// (these copies of a large output took 256 KiB of a large output's
  /// publish).
  @inlinable @inline(__always)
  final func publishSmall(_ output: UnsafePointer<Output>, unlessSame areEqual: (Output, Output) -> Bool) {
    if let last, areEqual(last, output.pointee) { return }
    last = output.pointee
    target?.publish(output.pointee)
  }
}

/// `body` called with the value at `pointer`, lent where it is: reading
/// `pointer.pointee` into an argument copies the value (retaining what it
/// references), as the callee might write through another pointer
/// meanwhile; an `inout` access rules that out, so the value is passed
/// without a copy.
@inlinable @inline(__always)
func borrowing<Value, Result>(_ pointer: UnsafePointer<Value>, _ body: (Value) -> Result) -> Result {
  lend(&UnsafeMutablePointer(mutating: pointer).pointee, to: body)
}

/// `body(value)`, for `borrowing(_:_:)`.
@inlinable @inline(__always)
func lend<Value, Result>(_ value: inout Value, to body: (Value) -> Result) -> Result {
  body(value)
}

/// Whether the values at `lhs` and `rhs` are `==`, compared where they are.
///
/// Not inlinable, so that it is never specialized for a caller's type: in
/// generic code `==` receives the values' addresses, where code specialized
/// for a large struct first copies both onto the stack (128 KiB for a
/// 64 KiB output). Used for large values only (`StateCore.isLarge`), whose
/// comparison costs far more than the generic call.
@usableFromInline @inline(never)
func areEqualInPlace<Value: Equatable>(_ lhs: UnsafePointer<Value>, _ rhs: UnsafePointer<Value>) -> Bool {
  areEqualInout(&UnsafeMutablePointer(mutating: lhs).pointee, &UnsafeMutablePointer(mutating: rhs).pointee)
}

/// `==` of two values reached in place (neither is written).
private func areEqualInout<Value: Equatable>(_ lhs: inout Value, _ rhs: inout Value) -> Bool {
  lhs == rhs
}

/// `map`: the user's transform, called as it is.
@usableFromInline
final class MapEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let transform: (Input) -> Output

  @inlinable
  init(
    _ transform: @escaping (Input) -> Output,
    update: @escaping (DerivedHubEntry, UnsafeRawPointer) -> Void
  ) {
    self.transform = transform
    super.init(update: update)
  }

  @usableFromInline
  override func start(_ input: UnsafePointer<Input>) -> Output {
    let output = borrowing(input, transform)
    remember(output)
    return output
  }

  /// An entry that publishes when the output is no longer `==` the last one.
  @inlinable
  static func equatable(_ transform: @escaping (Input) -> Output) -> MapEntry
  where Output: Equatable {
    MapEntry(transform) { entry, input in
      let entry = unsafeDowncast(entry, to: MapEntry.self)
      let input = input.assumingMemoryBound(to: Input.self)
      let output = borrowing(input, entry.transform)
      withUnsafePointer(to: output) { entry.publish(ifChanged: $0) }
    }
  }
}

/// `select` of a stored property: read at a fixed byte offset of the input,
/// where it is.
@usableFromInline
final class OffsetEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let offset: Int

  @inlinable
  init(offset: Int, update: @escaping (DerivedHubEntry, UnsafeRawPointer) -> Void) {
    self.offset = offset
    super.init(update: update)
  }

  /// The property inside the input.
  @inlinable @inline(__always)
  func read(_ input: UnsafePointer<Input>) -> UnsafePointer<Output> {
    UnsafeRawPointer(input).advanced(by: offset).assumingMemoryBound(to: Output.self)
  }

  @usableFromInline
  override func start(_ input: UnsafePointer<Input>) -> Output {
    let output = read(input).pointee
    remember(output)
    return output
  }

  /// An entry that publishes when the property is no longer `==` the last value.
  @inlinable
  static func equatable(offset: Int) -> OffsetEntry where Output: Equatable {
    OffsetEntry(offset: offset) { entry, input in
      let entry = unsafeDowncast(entry, to: OffsetEntry.self)
      let input = input.assumingMemoryBound(to: Input.self)
      entry.publish(ifChanged: entry.read(input))
    }
  }
}

/// `select` of a key path that is not a stored property: projected at run time.
@usableFromInline
final class KeyPathEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let keyPath: KeyPath<Input, Output>

  @inlinable
  init(_ keyPath: KeyPath<Input, Output>, update: @escaping (DerivedHubEntry, UnsafeRawPointer) -> Void) {
    self.keyPath = keyPath
    super.init(update: update)
  }

  @usableFromInline
  override func start(_ input: UnsafePointer<Input>) -> Output {
    let output = borrowing(input) { $0[keyPath: keyPath] }
    remember(output)
    return output
  }

  /// An entry that publishes when the value is no longer `==` the last one.
  @inlinable
  static func equatable(_ keyPath: KeyPath<Input, Output>) -> KeyPathEntry where Output: Equatable {
    KeyPathEntry(keyPath) { entry, input in
      let entry = unsafeDowncast(entry, to: KeyPathEntry.self)
      let input = input.assumingMemoryBound(to: Input.self)
      let output = borrowing(input) { $0[keyPath: entry.keyPath] }
      withUnsafePointer(to: output) { entry.publish(ifChanged: $0) }
    }
  }
}

/// A step that may report "nothing changed" with `nil` (memoized `map`,
/// custom pipelines), or a `map` compared by a custom function.
@usableFromInline
final class StepEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let step: (Input) -> Output?
  /// Used by `comparing` only; `equatable` compares with `==` inline.
  @usableFromInline let areEqual: @Sendable (Output, Output) -> Bool

  @inlinable
  init(
    _ step: @escaping (Input) -> Output?,
    areEqual: @escaping @Sendable (Output, Output) -> Bool,
    update: @escaping (DerivedHubEntry, UnsafeRawPointer) -> Void
  ) {
    self.step = step
    self.areEqual = areEqual
    super.init(update: update)
  }

  @usableFromInline
  override func start(_ input: UnsafePointer<Input>) -> Output {
    guard let output = borrowing(input, step) else {
      fatalError("Verge: a pipeline step returned nil for its first input")
    }
    remember(output)
    return output
  }

  /// An entry that publishes when the step's output is no longer `==` the last one.
  @inlinable
  static func equatable(_ step: @escaping (Input) -> Output?) -> StepEntry where Output: Equatable {
    StepEntry(step, areEqual: { $0 == $1 }) { entry, input in
      let entry = unsafeDowncast(entry, to: StepEntry.self)
      let input = input.assumingMemoryBound(to: Input.self)
      guard let output = borrowing(input, entry.step) else { return }
      withUnsafePointer(to: output) { entry.publish(ifChanged: $0) }
    }
  }

  /// An entry that publishes when `areEqual` says the step's output differs
  /// from the last one.
  @inlinable
  static func comparing(
    _ step: @escaping (Input) -> Output?, by areEqual: @escaping @Sendable (Output, Output) -> Bool
  ) -> StepEntry {
    StepEntry(step, areEqual: areEqual) { entry, input in
      let entry = unsafeDowncast(entry, to: StepEntry.self)
      let input = input.assumingMemoryBound(to: Input.self)
      guard let output = borrowing(input, entry.step) else { return }
      withUnsafePointer(to: output) { entry.publish($0, unlessSame: entry.areEqual) }
    }
  }
}
