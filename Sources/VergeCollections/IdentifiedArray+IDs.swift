extension IdentifiedArray {
  /// The ids of the elements, in order.
  ///
  /// - Complexity: O(1); the view shares the array's storage.
  @inlinable
  public var ids: IDs {
    IDs(base: self)
  }

  /// The ids of an array's elements, in order: a random-access collection
  /// that answers ``contains(_:)`` and ``firstIndex(of:)`` in O(log n).
  public struct IDs: RandomAccessCollection {
    @usableFromInline let base: IdentifiedArray

    @inlinable
    init(base: IdentifiedArray) {
      self.base = base
    }

    /// The position of the first id: 0.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var startIndex: Int { 0 }

    /// The position past the last id: `count`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var endIndex: Int { base.count }

    /// The id of the element at `position`.
    ///
    /// - Parameter position: A valid index.
    /// - Complexity: O(log n).
    @inlinable
    public subscript(position: Int) -> ID {
      base.identify(base[position])
    }

    /// Whether `id` is one of the ids.
    ///
    /// - Parameter id: The id to look for.
    /// - Returns: Whether an element has it.
    /// - Complexity: O(log n).
    @inlinable
    public func contains(_ id: ID) -> Bool {
      base.positions[id] != nil
    }

    /// The position of `id`, or `nil`.
    ///
    /// - Parameter id: The id to look for.
    /// - Returns: Its index.
    /// - Complexity: O(log n).
    @inlinable
    public func firstIndex(of id: ID) -> Int? {
      base.index(id: id)
    }

    /// Iterates the ids in order.
    public struct Iterator: IteratorProtocol {
      @usableFromInline var base: IdentifiedArray.Iterator
      // `IdentifiedArray.Identify`, not `(Element) -> ID`: inside an
      // iterator of ids, `Element` can name the ids.
      @usableFromInline let identify: IdentifiedArray.Identify

      @inlinable
      init(base: IdentifiedArray.Iterator, identify: @escaping IdentifiedArray.Identify) {
        self.base = base
        self.identify = identify
      }

      /// The next id, or `nil` at the end.
      ///
      /// - Complexity: O(1) amortized.
      @inlinable
      public mutating func next() -> ID? {
        base.next().map(identify)
      }
    }

    /// An iterator over the ids in order.
    ///
    /// - Complexity: O(log n) to start; iterating all costs O(n).
    @inlinable
    public func makeIterator() -> Iterator {
      Iterator(base: base.makeIterator(), identify: base.identify)
    }
  }
}

extension IdentifiedArray.IDs: Equatable {
  /// Whether the two hold the same ids in the same order.
  ///
  /// - Complexity: O(1) when both views read one id storage (a version of
  ///   an array whose writes kept every id); O(n) otherwise.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.base.hasIdenticalIDs(to: rhs.base) || lhs.elementsEqual(rhs)
  }
}
