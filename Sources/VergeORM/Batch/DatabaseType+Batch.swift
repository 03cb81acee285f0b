import Synchronization

extension DatabaseType {
  /// Changes the database in one all-or-nothing batch.
  ///
  /// ```swift
  /// store.commit {
  ///   $0.database.performBatchUpdates { context in
  ///     let author = context.entities.author.insert(Author(rawID: "1", name: "Le Guin"))
  ///     context.entities.book.insert(Book(rawID: "b1", authorID: author.entityID))
  ///   }
  /// }
  /// ```
  ///
  /// The closure works on a draft that shares the database's storage; the
  /// draft replaces the database only when the closure returns. When it
  /// throws, the database is unchanged and the error is rethrown. After the
  /// closure, the type's `middlewares` run on the same draft.
  ///
  /// - Parameter body: Reads and writes through the context.
  /// - Returns: The closure's result and what the batch inserted, updated and
  ///   deleted, per table.
  /// - Throws: What `body` threw.
  /// - Complexity: O(k log₁₆ N) for k entities written in tables of N, also
  ///   while earlier copies of the database are held elsewhere.
  @inlinable
  @discardableResult
  public mutating func performBatchUpdates<Output, Failure: Error>(
    _ body: (DatabaseBatchUpdatesContext<Self>) throws(Failure) -> Output
  ) throws(Failure) -> BatchUpdateResult<Self, Output> {
    let context = DatabaseBatchUpdatesContext<Self>(storage: _backingStorage)
    let output = try body(context)
    let (storage, changes) = context.finish(from: _backingStorage)
    _backingStorage = storage
    checkInvariantsAfterBatchIfEnabled()
    return BatchUpdateResult(output: output, changes: changes)
  }
}

extension DatabaseType {
  /// In debug builds of this module, checks every invariant when tests
  /// turned the check on, and traps on a violation.
  @usableFromInline
  func checkInvariantsAfterBatchIfEnabled() {
    #if DEBUG
      if databaseInvariantChecksEnabled.load(ordering: .relaxed) {
        let problems = invariantViolations()
        precondition(problems.isEmpty, "VergeORM invariants broken after a batch: \(problems)")
      }
    #endif
  }
}

/// When on (tests turn it on), debug builds check every invariant after each
/// batch and trap on a violation.
let databaseInvariantChecksEnabled = Atomic<Bool>(false)

extension DatabaseType {
  /// Turns the debug-only invariant check after each batch on or off.
  ///
  /// - Parameter enabled: Whether to check.
  @_spi(Testing)
  public static func setInvariantChecksAfterEachBatch(_ enabled: Bool) {
    databaseInvariantChecksEnabled.store(enabled, ordering: .relaxed)
  }
}
