@testable import VergeORM
import XCTest

final class BatchUpdatesTests: XCTestCase {
  override func setUp() {
    Library.setInvariantChecksAfterEachBatch(true)
  }

  private func seeded() throws -> Library {
    var database = Library()
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert([Author(rawID: "a1", name: "Le Guin"), Author(rawID: "a2", name: "Herbert")])
      for (id, author) in [("b1", "a1"), ("b2", "a1"), ("b3", "a2")] {
        let book = context.entities.book.insert(Book(rawID: id, authorID: .init(author)))
        try context.indexes.allBooks.append(book.entityID)
        try context.indexes.booksByAuthor.append(book.entityID, to: book.authorID)
      }
    }
    return database
  }

  func testBatchReportsNetChanges() throws {
    var database = try seeded()
    let result = try database.performBatchUpdatesReportingChanges { (context) throws(DatabaseError) -> Int in
      context.entities.book.insert(Book(rawID: "b4", authorID: .init("a2")))
      try context.entities.book.update(.init("b1")) { $0.name = "Earthsea" }
      context.entities.book.delete(.init("b2"))
      context.entities.book.insert(Book(rawID: "tmp", authorID: .init("a2")))
      context.entities.book.delete(.init("tmp"))
      return 42
    }
    XCTAssertEqual(result.output, 42)
    XCTAssertEqual(result.changes.book.inserted, [.init("b4")])
    XCTAssertEqual(result.changes.book.updated, [.init("b1")])
    XCTAssertEqual(result.changes.book.deleted, [.init("b2")])
    XCTAssertTrue(result.changes.author.isEmpty)
    XCTAssertEqual(database.entities.book.find(by: .init("b1"))?.name, "Earthsea")
    XCTAssertEqual(database.indexes.allBooks.ids, [.init("b1"), .init("b3")])
  }

  func testThrowingBatchChangesNothing() throws {
    var database = try seeded()
    let before = database
    struct Failure: Error {}
    XCTAssertThrowsError(
      try database.performBatchUpdates { (context) throws(any Error) in
        context.entities.book.deleteAll()
        context.entities.author.insert(Author(rawID: "a9"))
        throw Failure()
      }
    ) { XCTAssertTrue($0 is Failure) }
    XCTAssertTrue(database == before)
    XCTAssertEqual(database.entities.book.count, 3)
    XCTAssertEqual(database.indexes.allBooks.count, 3)
    XCTAssertNil(database.entities.author.find(by: .init("a9")))
  }

  func testThrowingCommitThroughStoreChangesNothing() throws {
    let store = Store<LibraryState, Never>(initialState: LibraryState(library: try seeded()))
    XCTAssertThrowsError(
      try store.commit { (state) throws(DatabaseError) in
        try state.library.performBatchUpdates { (context) throws(DatabaseError) in
          context.entities.book.delete(.init("b1"))
          try context.entities.book.update(.init("missing")) { $0.name = "x" }
        }
      }
    ) { XCTAssertEqual($0 as? DatabaseError, .entityNotFound("Book(missing)")) }
    XCTAssertEqual(store.state.library.entities.book.count, 3)
  }

  func testRefusedIndexWriteRollsBackTheBatch() throws {
    var database = try seeded()
    XCTAssertThrowsError(
      try database.performBatchUpdates { (context) throws(DatabaseError) in
        try context.entities.book.update(.init("b1")) { $0.name = "ok" }
        try context.indexes.allBooks.insert(.init("b1"), at: 0)
      }
    ) { XCTAssertEqual($0 as? DatabaseError, .duplicateIndexEntry(index: "allBooks", entity: "Book(b1)")) }
    XCTAssertEqual(database.entities.book.find(by: .init("b1"))?.name, "initial")
  }

  func testMiddlewareDeletesBooksOfDeletedAuthor() throws {
    var database = try seeded()
    let result = database.performBatchUpdatesReportingChanges { context in
      context.entities.author.delete(.init("a1"))
    }
    XCTAssertEqual(result.changes.author.deleted, [.init("a1")])
    XCTAssertEqual(result.changes.book.deleted, [.init("b1"), .init("b2")])
    XCTAssertEqual(database.entities.book.all().map(\.rawID), ["b3"])
    XCTAssertEqual(database.indexes.allBooks.ids, [.init("b3")])
    XCTAssertEqual(Array(database.indexes.booksByAuthor.groups), [.init("a2")])
    XCTAssertEqual(database.invariantViolations(), [])
  }

  func testUntouchedPartsCompareEqualInConstantTime() throws {
    let database = try seeded()
    var changed = database
    changed.performBatchUpdates { context in
      context.entities.author.insert(Author(rawID: "a3"))
    }
    XCTAssertFalse(changed == database)
    XCTAssertEqual(changed.entities.book, database.entities.book)
    XCTAssertEqual(changed._backingStorage.table(Book.self).version, database._backingStorage.table(Book.self).version)
    XCTAssertNotEqual(changed._backingStorage.table(Author.self).version, database._backingStorage.table(Author.self).version)
    XCTAssertEqual(changed.indexes.allBooks, database.indexes.allBooks)

    // A batch that writes nothing keeps the database equal and its version.
    var untouched = database
    untouched.performBatchUpdates { context in _ = context.entities.book.count }
    XCTAssertEqual(untouched._backingStorage.version, database._backingStorage.version)

    // Writing back the same value makes a new version with equal contents.
    var rewritten = database
    rewritten.performBatchUpdates { context in
      context.entities.author.insert(database.entities.author.find(by: .init("a1"))!)
    }
    XCTAssertTrue(rewritten == database)
  }

  func testIfChangedOnDatabaseThroughStore() throws {
    let store = Store<LibraryState, Never>(initialState: LibraryState(library: try seeded()))
    let deliveries = LockedCounter()
    let subscription = store.sinkState(dropsFirst: true) { changes in
      changes.ifChanged(\.library) { _ in deliveries.increment() }
    }
    store.commit { $0.counter += 1 }
    XCTAssertEqual(deliveries.value, 0)
    store.commit {
      $0.library.performBatchUpdates { context in
        context.entities.author.insert(Author(rawID: "a5"))
      }
    }
    XCTAssertEqual(deliveries.value, 1)
    subscription.cancel()
  }
}
