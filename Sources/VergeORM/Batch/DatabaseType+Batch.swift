import Synchronization

extension DatabaseType {
  /// Changes the database in one all-or-nothing batch, and returns what the
  /// closure returned, as Verge does.
  ///
  /// ```swift
  /// store.commit {
  ///   $0.database.performBatchUpdates { context in
  ///     let author = context.entities.author.insert(Author(rawID: "1", name: "Le Guin"))
  ///     context.entities.book.insert(Book(rawID: "b1", authorID: author.entityID))
  ///   }
  /// }
  /// let author = database.performBatchUpdates { $0.entities.author.insert(Author(rawID: "2")) }
  /// ```
  ///
  /// The closure works on a draft that shares the database's storage; the
  /// draft replaces the database only when the closure returns. When it
  /// throws, the database is unchanged and the error is rethrown. After the
  /// closure, the type's `middlewares` run on the same draft. To learn what
  /// the batch inserted, updated and deleted, use
  /// `performBatchUpdatesReportingChanges(_:)`.
  ///
  /// - Parameter body: Reads and writes through the context.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw.
  /// - Complexity: O(k log₁₆ N) for k entities written in tables of N, also
  ///   while earlier copies of the database are held elsewhere.
  @inlinable
  @discardableResult
  public mutating func performBatchUpdates<Output, Failure: Error>(
    _ body: (DatabaseBatchUpdatesContext<Self>) throws(Failure) -> Output
  ) throws(Failure) -> Output {
    try performBatchUpdatesReportingChanges(body).output
  }

  /// Changes the database in one all-or-nothing batch as
  /// `performBatchUpdates(_:)` does, and reports what the batch changed.
  ///
  /// ```swift
  /// let result = database.performBatchUpdatesReportingChanges { context in
  ///   context.entities.book.delete(.init("b2"))
  /// }
  /// result.changes.book.deleted   // [b2]
  /// ```
  ///
  /// - Parameter body: Reads and writes through the context.
  /// - Returns: The closure's result and what the batch inserted, updated
  ///   and deleted, per table (the middlewares' changes included).
  /// - Throws: What `body` threw.
  /// - Complexity: As `performBatchUpdates(_:)`.
  @inlinable
  @discardableResult
  public mutating func performBatchUpdatesReportingChanges<Output, Failure: Error>(
    _ body: (DatabaseBatchUpdatesContext<Self>) throws(Failure) -> Output
  ) throws(Failure) -> BatchUpdateResult<Self, Output> {
    let context = beginBatchUpdates()
    let output = try body(context)
    let changes = commitBatchUpdates(context: context)
    return BatchUpdateResult(output: output, changes: changes)
  }

  /// Starts a batch by hand, for code that cannot put it in one closure:
  /// Verge's `beginBatchUpdates()`. Finish it with
  /// `commitBatchUpdates(context:)` on the same database, with no other
  /// change to it in between; dropping the context abandons the batch.
  ///
  /// ```swift
  /// let context = database.beginBatchUpdates()
  /// context.entities.book.insert(book)
  /// database.commitBatchUpdates(context: context)
  /// ```
  ///
  /// - Returns: The batch's context.
  @inlinable
  public func beginBatchUpdates() -> DatabaseBatchUpdatesContext<Self> {
    DatabaseBatchUpdatesContext<Self>(storage: _backingStorage)
  }

  /// Applies a batch started with `beginBatchUpdates()`: runs the type's
  /// `middlewares` and replaces the database with the batch's result.
  ///
  /// - Parameter context: The context `beginBatchUpdates()` returned.
  /// - Returns: What the batch inserted, updated and deleted, per table.
  @inlinable
  @discardableResult
  public mutating func commitBatchUpdates(context: DatabaseBatchUpdatesContext<Self>) -> DatabaseChanges<Self> {
    let (storage, changes) = context.finish(from: _backingStorage)
    _backingStorage = storage
    checkInvariantsAfterBatchIfEnabled()
    return changes
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
        if !problems.isEmpty {
          fatalError("VergeORM invariants broken after a batch: \(problems)")
        }
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
  package static func setInvariantChecksAfterEachBatch(_ enabled: Bool) {
    databaseInvariantChecksEnabled.store(enabled, ordering: .relaxed)
  }
}
