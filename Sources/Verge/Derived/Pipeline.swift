/// How a derived value is computed from its source: what it selects, how it
/// maps it, and when two outputs count as the same.
///
/// ```swift
/// store.derived(.select(\.count))                        // a property
/// store.derived(.map { $0.count * 2 })                   // any function of the state
/// store.derived(.map(\.firstName, \.lastName) { "\($0) \($1)" })  // memoized on inputs
/// store.derived(.map({ $0.selection }, comparedBy: { $0.id == $1.id }))
/// ```
///
/// A derived value publishes only when its output changes. `map` over key
/// paths runs its closure only when one of those inputs changed, as
/// `reselect` does; `map` over the whole state runs it once per commit that
/// wrote something.
public struct Pipeline<Input: Sendable, Output: Sendable>: Sendable {
  @usableFromInline let makeRunner: @Sendable () -> PipelineRunner<Input, Output>

  /// A pipeline with a custom memoization step; the building block for
  /// libraries on top of Verge.
  ///
  /// - Parameters:
  ///   - areEqual: Whether two outputs are the same (then nothing is published).
  ///   - makeStep: Called once per derived value; returns the function that
  ///     turns an input into an output, or into `nil` when the input did not
  ///     change in a way that matters. That function is called serially.
  @inlinable
  public init(
    comparedBy areEqual: @escaping @Sendable (Output, Output) -> Bool,
    makeStep: @escaping @Sendable () -> (Input) -> Output?
  ) {
    makeRunner = { PipelineRunner(step: makeStep(), areEqual: areEqual) }
  }

  /// A pipeline that reads a stored property at a fixed byte offset.
  @inlinable
  init(offset: Int, comparedBy areEqual: @escaping @Sendable (Output, Output) -> Bool) {
    makeRunner = { PipelineRunner(offset: offset, areEqual: areEqual) }
  }

  /// Selects a property.
  ///
  /// - Parameter keyPath: The property to select.
  /// - Returns: The pipeline.
  /// - Complexity: One read and one comparison per upstream change.
  @inlinable
  public static func select(_ keyPath: KeyPath<Input, Output> & Sendable) -> Pipeline
  where Output: Equatable {
    // A stored property of a struct sits at a fixed offset: read it there and
    // skip the run-time key path projection, which costs more than the rest
    // of a derived value's update together.
    if let offset = MemoryLayout<Input>.offset(of: keyPath) {
      return Pipeline(offset: offset, comparedBy: ==)
    }
    return Pipeline(comparedBy: ==) { { $0[keyPath: keyPath] } }
  }

  /// Maps the whole input; the closure runs on every upstream change.
  ///
  /// - Parameter transform: A pure function of the input. It runs inside the
  ///   source's delivery: it must not commit to or subscribe to the source.
  /// - Returns: The pipeline.
  @inlinable
  public static func map(_ transform: @escaping @Sendable (Input) -> Output) -> Pipeline
  where Output: Equatable {
    Pipeline(comparedBy: ==) { { transform($0) } }
  }

  /// Maps the whole input, deciding sameness of outputs with `areEqual`;
  /// for outputs that are not `Equatable` or need a looser test.
  ///
  /// - Parameters:
  ///   - transform: A pure function of the input.
  ///   - areEqual: Whether two outputs are the same.
  /// - Returns: The pipeline.
  @inlinable
  public static func map(
    _ transform: @escaping @Sendable (Input) -> Output,
    comparedBy areEqual: @escaping @Sendable (Output, Output) -> Bool
  ) -> Pipeline {
    Pipeline(comparedBy: areEqual) { { transform($0) } }
  }

  /// Maps one or more properties; the closure runs only when one of them
  /// changed (memoized).
  ///
  /// ```swift
  /// store.derived(.map(\.items, \.filter) { items, filter in items.filter(filter.matches) })
  /// ```
  ///
  /// - Parameters:
  ///   - keyPaths: The inputs the closure reads.
  ///   - transform: A pure function of those inputs.
  /// - Returns: The pipeline.
  /// - Complexity: One read and comparison per input per upstream change,
  ///   plus the closure when an input changed.
  @inlinable
  public static func map<each Selected: Equatable & Sendable>(
    _ keyPaths: repeat KeyPath<Input, each Selected> & Sendable,
    transform: @escaping @Sendable (repeat each Selected) -> Output
  ) -> Pipeline where Output: Equatable {
    Pipeline(comparedBy: ==) {
      var last: (repeat each Selected)?
      return { input in
        let inputs = (repeat input[keyPath: each keyPaths])
        if let old = last {
          var changed = false
          for (a, b) in repeat (each old, each inputs) {
            changed = changed || a != b
          }
          if !changed { return nil }
        }
        last = inputs
        return transform(repeat each inputs)
      }
    }
  }
}

/// One derived value's running pipeline: its step and the last output it
/// published. Called only serially (see `Derived`).
@usableFromInline
final class PipelineRunner<Input, Output> {
  @usableFromInline let step: ((Input) -> Output?)?
  /// Set for `select` of a stored property: read there, with no closure call.
  @usableFromInline let offset: Int
  @usableFromInline let areEqual: @Sendable (Output, Output) -> Bool
  @usableFromInline @exclusivity(unchecked) var last: Output?

  @inlinable
  init(step: @escaping (Input) -> Output?, areEqual: @escaping @Sendable (Output, Output) -> Bool) {
    self.step = step
    self.offset = 0
    self.areEqual = areEqual
  }

  @inlinable
  init(offset: Int, areEqual: @escaping @Sendable (Output, Output) -> Bool) {
    self.step = nil
    self.offset = offset
    self.areEqual = areEqual
  }

  @inlinable @inline(__always)
  func output(for input: Input) -> Output? {
    guard let step else {
      return withUnsafeBytes(of: input) { $0.load(fromByteOffset: offset, as: Output.self) }
    }
    return step(input)
  }

  /// The first output, computed when the derived value is made.
  @inlinable
  func start(_ input: Input) -> Output {
    guard let output = output(for: input) else {
      preconditionFailure("Verge: a pipeline step returned nil for its first input")
    }
    last = output
    return output
  }

  /// The new output, or `nil` when nothing changed.
  @inlinable @inline(__always)
  func run(_ input: Input) -> Output? {
    guard let output = output(for: input) else { return nil }
    if let last, areEqual(last, output) { return nil }
    last = output
    return output
  }

  @inlinable
  var areEqualFunction: @Sendable (Output, Output) -> Bool { areEqual }
}
