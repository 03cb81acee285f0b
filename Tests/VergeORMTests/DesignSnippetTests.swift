import VergeORM
import XCTest

/// The types of the VergeORM fragment of Verge's documentation, exactly as
/// DESIGN.md lists them (in an enum only to keep them apart from the
/// fixtures' `Book` and `Author`).
enum ORMSnippet {
  struct Book: EntityType {
    typealias EntityIDRawType = String
    var entityID: EntityID { .init(rawID) }
    let rawID: String
    var name: String = "initial"
    let authorID: Author.EntityID
  }

  struct Author: EntityType {
    typealias EntityIDRawType = String
    var entityID: EntityID { .init(rawID) }
    let rawID: String
    var name: String = ""
  }

  struct Database: DatabaseType {
    struct Schema: EntitySchemaType {
      let book = Book.EntityTableKey()
      let author = Author.EntityTableKey()
    }
    struct Indexes: IndexesType {}
    var _backingStorage: BackingStorage = .init()
  }
}

/// The VergeORM fragments of Verge's documentation, which DESIGN.md promises
/// compile unchanged and behave as written.
final class DesignSnippetTests: XCTestCase {
  typealias Book = ORMSnippet.Book
  typealias Author = ORMSnippet.Author
  typealias Database = ORMSnippet.Database

  func testORMSnippetCompilesAndBehaves() {
    struct RootState: Equatable { var database: Database = .init() }

    let store = Store<RootState, Never>(initialState: .init())
    store.commit {
      $0.database.performBatchUpdates { context in
        let authors = (0..<10).map { i in Author(rawID: "\(i)") }
        let result = context.entities.author.insert(authors)
        _ = result  // not in the snippet: keeps this test free of an unused-value warning
      }
    }
    let author = store.state.database.entities.author.find(by: .init("1"))

    XCTAssertEqual(author, Author(rawID: "1"))
    XCTAssertEqual(author?.name, "")
    XCTAssertEqual(store.state.database.entities.author.count, 10)
    XCTAssertEqual(store.state.database.entities.book.count, 0)
  }

  /// Verge README: the ORM state declared as `RootStateType`, queried through `.db`.
  func testRootStateTypeAndDBSnippetCompilesAndBehaves() {
    struct RootState: RootStateType { var database: Database = .init() }

    let store = Store<RootState, Never>(initialState: .init())
    store.commit {
      $0.database.performBatchUpdates { context in
        let author = context.entities.author.insert(Author(rawID: "a", name: "Le Guin"))
        context.entities.book.insert((0..<3).map { i in Book(rawID: "\(i)", authorID: author.entityID) })
      }
    }
    let book = store.state.database.db.entities.book.find(by: .init("1"))

    XCTAssertEqual(book?.name, "initial")
    XCTAssertEqual(book?.authorID, Author.EntityID("a"))
    XCTAssertEqual(
      book.flatMap { store.state.database.db.entities.author.find(by: $0.authorID)?.name }, "Le Guin")
    XCTAssertEqual(store.state.database.db.entities.book.count, 3)
    XCTAssertNil(store.state.database.db.entities.book.find(by: .init("9")))
    // A RootStateType state is an Equatable state: equal databases, equal states.
    XCTAssertEqual(store.state.current, store.state.current)
    XCTAssertNotEqual(store.state.current, RootState())
  }
}
