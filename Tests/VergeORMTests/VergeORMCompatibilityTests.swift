import VergeORM
import XCTest

/// Verge's own VergeORM tests, rewritten for the names this library keeps
/// from Verge (`table(_:)`, `beginBatchUpdates`, `updateIfExists`, ...).
final class VergeORMCompatibilityTests: XCTestCase {
  func testPerformBatchUpdatesReturnsTheClosuresValue() {
    var library = Library()
    let author = library.performBatchUpdates { $0.entities.author.insert(Author(rawID: "a1", name: "Le Guin")) }
    XCTAssertEqual(author.name, "Le Guin")
    let count: Int = library.performBatchUpdates { context in context.entities.author.count }
    XCTAssertEqual(count, 1)
    let result = library.performBatchUpdatesReportingChanges { context in
      context.entities.author.delete(.init("a1"))
    }
    XCTAssertEqual(result.output?.name, "Le Guin")
    XCTAssertEqual(result.changes.author.deleted, [.init("a1")])
  }

  func testABatchBegunByHandAppliesOnCommit() {
    var library = Library()
    let context = library.beginBatchUpdates()
    context.entities.author.insert(Author(rawID: "a1"))
    context.entities.book.insert(Book(rawID: "b1", authorID: .init("a1")))
    XCTAssertEqual(library.entities.book.count, 0, "nothing changes before the commit")
    let changes = library.commitBatchUpdates(context: context)
    XCTAssertEqual(library.entities.book.count, 1)
    XCTAssertEqual(changes.book.inserted, [.init("b1")])
    let abandoned = library.beginBatchUpdates()
    abandoned.entities.book.deleteAll()
    XCTAssertEqual(library.entities.book.count, 1, "a context never committed changes nothing")
  }

  func testTablesByEntityType() {
    var library = Library()
    library.performBatchUpdates { context in
      context.entities.table(Author.self).insert(Author(rawID: "a1", name: "Herbert"))
    }
    XCTAssertEqual(library.entities.table(Author.self).find(by: .init("a1"))?.name, "Herbert")
    XCTAssertEqual(library.entities.table(Book.self).count, 0)
  }

  func testUpdateIfExistsChangesOnlyWhatExists() {
    var library = Library()
    library.performBatchUpdates { $0.entities.author.insert(Author(rawID: "muukii", name: "muukii")) }
    library.performBatchUpdates { context in
      context.entities.author.updateIfExists(id: .init("muukii")) { $0.name = "Hiroshi" }
      XCTAssertEqual(context.entities.author.all().first?.name, "Hiroshi")
      XCTAssertNil(context.entities.author.updateIfExists(id: .init("nobody")) { $0.name = "x" })
      let renamed = context.entities.author.updateIfExists(id: .init("muukii")) { author in
        author = Author(rawID: "other", name: author.name)
      }
      XCTAssertNil(renamed, "changing the ID is refused")
    }
    XCTAssertEqual(library.entities.author.find(by: .init("muukii"))?.name, "Hiroshi")
    XCTAssertEqual(library.entities.author.count, 1)
  }

  func testAppendContentsOfIsAllOrNothing() throws {
    var library = Library()
    try library.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a1"))
      let books = context.entities.book.insert((1...3).map { Book(rawID: "b\($0)", authorID: .init("a1")) })
      try context.indexes.allBooks.append(contentsOf: books.map(\.entityID))
    }
    XCTAssertEqual(library.indexes.allBooks.ids, [.init("b1"), .init("b2"), .init("b3")])
    XCTAssertThrowsError(
      try library.performBatchUpdates { (context) throws(DatabaseError) in
        context.entities.book.insert(Book(rawID: "b4", authorID: .init("a1")))
        do throws(DatabaseError) {
          try context.indexes.allBooks.append(contentsOf: [.init("b4"), .init("b1")])
        } catch {
          XCTAssertEqual(context.indexes.allBooks.index.ids.count, 3, "a refused append leaves the index as it was")
          throw error
        }
      }
    ) { XCTAssertEqual($0 as? DatabaseError, .duplicateIndexEntry(index: "allBooks", entity: "Book(b1)")) }
  }

  func testAnIdentifierDescribesItselfAsVergeDoes() {
    let authorID = Author.EntityID("author.id")
    XCTAssertEqual(authorID.description, "<VergeORMTests.Author>(author.id)")
    XCTAssertEqual("\(authorID)", "Author(author.id)", "messages keep the short form")
  }

  func testCurrentIsTheTableAsTheBatchHasLeftIt() {
    var library = Library()
    library.performBatchUpdates { $0.entities.author.insert(Author(rawID: "a1", name: "Herbert")) }
    library.performBatchUpdates { context in
      guard var author = context.entities.author.current.find(by: .init("a1")) else {
        return XCTFail("the committed author is in the batch's table")
      }
      author.name = "Frank Herbert"
      context.entities.author.insert(author)
      let before = context.entities.author.current
      XCTAssertEqual(before.find(by: .init("a1"))?.name, "Frank Herbert", "writes of the batch so far are seen")
      context.entities.author.insert(Author(rawID: "a2"))
      XCTAssertEqual(before.count, 1, "a table already read does not change with later writes")
      XCTAssertEqual(context.entities.author.current.count, 2)
    }
    XCTAssertEqual(library.entities.author.find(by: .init("a1"))?.name, "Frank Herbert")
  }

  /// The VergeORM snippet of the "Coming from Verge" article.
  func testTheComingFromVergeSnippet() {
    var library = Library()
    let author = library.performBatchUpdates { context in
      context.entities.table(Author.self).insert(Author(rawID: "a1", name: "Le Guin"))
    }
    let context = library.beginBatchUpdates()
    context.entities.author.updateIfExists(id: author.entityID) { $0.name = "Ursula K. Le Guin" }
    library.commitBatchUpdates(context: context)

    XCTAssertEqual(library.entities.author.find(by: .init("a1"))?.name, "Ursula K. Le Guin")
  }
}
