/// One derived value's pipeline as its source's hub runs it: what it reads,
/// the last output it published, and the derived value's core to publish to.
///
/// Each kind of pipeline is a final subclass whose `update` is a function
/// without context, written in `@inlinable` code so that it is specialized
/// for the input and output types in the caller's module: the hub calls it
/// directly with the entry, and it calls the user's closure and compares
/// with `==` inline, with no closure in between. Called only serially (see
/// `Derived`).
@usableFromInline
class PipelineEntry<Input: Sendable, Output: Sendable>: DerivedHub<Input>.Entry {
  /// The derived value's core; set once, before the entry joins its hub.
  @usableFromInline @exclusivity(unchecked) final var target: StateCore<Output, Never>?

  @inlinable
  override init(update: @escaping (DerivedHub<Input>.Entry, Input) -> Void) {
    super.init(update: update)
  }

  /// The first output, computed when the derived value is made, and
  /// remembered as the last one.
  @usableFromInline
  func start(_ input: Input) -> Output {
    preconditionFailure("Verge: PipelineEntry.start is implemented by each kind")
  }

  @usableFromInline
  override func sourceEnded() {
    target?.end()
  }

  /// Hands a changed output to the derived value.
  @inlinable
  func publish(_ output: Output) {
    target?.publish(output)
  }
}

/// `map`: the user's transform, called as it is.
@usableFromInline
final class MapEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let transform: (Input) -> Output
  @usableFromInline @exclusivity(unchecked) var last: Output?

  @inlinable
  init(
    _ transform: @escaping (Input) -> Output,
    update: @escaping (DerivedHub<Input>.Entry, Input) -> Void
  ) {
    self.transform = transform
    super.init(update: update)
  }

  @usableFromInline
  override func start(_ input: Input) -> Output {
    let output = transform(input)
    last = output
    return output
  }

  /// An entry that publishes when the output is no longer `==` the last one.
  @inlinable
  static func equatable(_ transform: @escaping (Input) -> Output) -> MapEntry
  where Output: Equatable {
    MapEntry(transform) { entry, input in
      let entry = unsafeDowncast(entry, to: MapEntry.self)
      let output = entry.transform(input)
      if let last = entry.last, last == output { return }
      entry.last = output
      entry.publish(output)
    }
  }
}

/// `select` of a stored property: a load at a fixed byte offset of the input.
@usableFromInline
final class OffsetEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let offset: Int
  @usableFromInline @exclusivity(unchecked) var last: Output?

  @inlinable
  init(offset: Int, update: @escaping (DerivedHub<Input>.Entry, Input) -> Void) {
    self.offset = offset
    super.init(update: update)
  }

  @inlinable @inline(__always)
  func read(_ input: Input) -> Output {
    withUnsafeBytes(of: input) { $0.load(fromByteOffset: offset, as: Output.self) }
  }

  @usableFromInline
  override func start(_ input: Input) -> Output {
    let output = read(input)
    last = output
    return output
  }

  /// An entry that publishes when the property is no longer `==` the last value.
  @inlinable
  static func equatable(offset: Int) -> OffsetEntry where Output: Equatable {
    OffsetEntry(offset: offset) { entry, input in
      let entry = unsafeDowncast(entry, to: OffsetEntry.self)
      let output = entry.read(input)
      if let last = entry.last, last == output { return }
      entry.last = output
      entry.publish(output)
    }
  }
}

/// `select` of a key path that is not a stored property: projected at run time.
@usableFromInline
final class KeyPathEntry<Input: Sendable, Output: Sendable>: PipelineEntry<Input, Output> {
  @usableFromInline let keyPath: KeyPath<Input, Output>
  @usableFromInline @exclusivity(unchecked) var last: Output?

  @inlinable
  init(_ keyPath: KeyPath<Input, Output>, update: @escaping (DerivedHub<Input>.Entry, Input) -> Void) {
    self.keyPath = keyPath
    super.init(update: update)
  }

  @usableFromInline
  override func start(_ input: Input) -> Output {
    let output = input[keyPath: keyPath]
    last = output
    return output
  }

  /// An entry that publishes when the value is no longer `==` the last one.
  @inlinable
  static func equatable(_ keyPath: KeyPath<Input, Output>) -> KeyPathEntry where Output: Equatable {
    KeyPathEntry(keyPath) { entry, input in
      let entry = unsafeDowncast(entry, to: KeyPathEntry.self)
      let output = input[keyPath: entry.keyPath]
      if let last = entry.last, last == output { return }
      entry.last = output
      entry.publish(output)
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
  @usableFromInline @exclusivity(unchecked) var last: Output?

  @inlinable
  init(
    _ step: @escaping (Input) -> Output?,
    areEqual: @escaping @Sendable (Output, Output) -> Bool,
    update: @escaping (DerivedHub<Input>.Entry, Input) -> Void
  ) {
    self.step = step
    self.areEqual = areEqual
    super.init(update: update)
  }

  @usableFromInline
  override func start(_ input: Input) -> Output {
    guard let output = step(input) else {
      preconditionFailure("Verge: a pipeline step returned nil for its first input")
    }
    last = output
    return output
  }

  /// An entry that publishes when the step's output is no longer `==` the last one.
  @inlinable
  static func equatable(_ step: @escaping (Input) -> Output?) -> StepEntry where Output: Equatable {
    StepEntry(step, areEqual: { $0 == $1 }) { entry, input in
      let entry = unsafeDowncast(entry, to: StepEntry.self)
      guard let output = entry.step(input) else { return }
      if let last = entry.last, last == output { return }
      entry.last = output
      entry.publish(output)
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
      guard let output = entry.step(input) else { return }
      if let last = entry.last, entry.areEqual(last, output) { return }
      entry.last = output
      entry.publish(output)
    }
  }
}
