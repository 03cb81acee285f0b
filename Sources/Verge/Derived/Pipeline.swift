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
  /// Makes one derived value's hub entry, whose update is specialized for
  /// this pipeline's kind and output type.
  @usableFromInline let makeEntry: @Sendable () -> PipelineEntry<Input, Output>
  /// Whether two outputs are the same, for the derived value's own core.
  @usableFromInline let areEqual: @Sendable (Output, Output) -> Bool

  @inlinable
  init(
    areEqual: @escaping @Sendable (Output, Output) -> Bool,
    makeEntry: @escaping @Sendable () -> PipelineEntry<Input, Output>
  ) {
    self.areEqual = areEqual
    self.makeEntry = makeEntry
  }

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
    self.init(areEqual: areEqual) { StepEntry.comparing(makeStep(), by: areEqual) }
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
      return Pipeline(areEqual: { $0 == $1 }) { OffsetEntry.equatable(offset: offset) }
    }
    return Pipeline(areEqual: { $0 == $1 }) { KeyPathEntry.equatable(keyPath) }
  }

  /// Selects a property, as `select(_:)` does; Verge's documentation
  /// writes it `.map(\.nested)`.
  ///
  /// - Parameter keyPath: The property to select.
  /// - Returns: The pipeline.
  /// - Complexity: One read and one comparison per upstream change.
  @inlinable
  public static func map(_ keyPath: KeyPath<Input, Output> & Sendable) -> Pipeline
  where Output: Equatable {
    select(keyPath)
  }

  /// Maps the whole input; the closure runs on every upstream change.
  ///
  /// - Parameter transform: A pure function of the input. It runs inside the
  ///   source's delivery: it must not commit to or subscribe to the source.
  /// - Returns: The pipeline.
  @inlinable
  public static func map(_ transform: @escaping @Sendable (Input) -> Output) -> Pipeline
  where Output: Equatable {
    Pipeline(areEqual: { $0 == $1 }) { MapEntry.equatable(transform) }
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
    Pipeline(areEqual: areEqual) { StepEntry.comparing({ transform($0) }, by: areEqual) }
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
    Pipeline(areEqual: { $0 == $1 }) {
      var last: (repeat each Selected)?
      return StepEntry.equatable { input in
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

