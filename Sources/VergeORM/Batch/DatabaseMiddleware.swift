/// A hook that runs inside every batch of a database type, after the batch
/// closure and before the batch is applied, and can add work to it.
///
/// ```swift
/// struct Database: DatabaseType {
///   // Schema, Indexes, _backingStorage ...
///   static var middlewares: [DatabaseMiddleware<Database>] {
///     [DatabaseMiddleware(name: "delete books of deleted authors") { context in
///       for author in context.changes.author.deleted {
///         context.entities.book.delete(context.indexes.booksByAuthor.ids(in: author))
///       }
///     }]
///   }
/// }
/// ```
///
/// Middlewares run once per batch, in order; each sees the changes made by
/// the closure and by the middlewares before it. Groups of a
/// `GroupByEntityIndex` whose group entity was deleted are still readable
/// here; they are removed after the last middleware.
public struct DatabaseMiddleware<Database: DatabaseType>: Sendable {
  /// A name for logs.
  public let name: String
  let body: @Sendable (DatabaseBatchUpdatesContext<Database>) -> Void

  /// Creates a middleware.
  ///
  /// - Parameters:
  ///   - name: A name for logs.
  ///   - body: The work to run inside each batch; it cannot throw, so handle
  ///     index errors inside it.
  public init(name: String, _ body: @escaping @Sendable (DatabaseBatchUpdatesContext<Database>) -> Void) {
    self.name = name
    self.body = body
  }

  func run(_ context: DatabaseBatchUpdatesContext<Database>) {
    body(context)
  }
}
