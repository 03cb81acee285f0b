import VergeORM
import XCTest

/// The README / Getting Started code, kept compiling and behaving.
final class GettingStartedTests: XCTestCase {
  func testBooksAndAuthors() throws {
    struct Author: EntityType {
      typealias EntityIDRawType = String
      var entityID: EntityID { .init(rawID) }
      let rawID: String
      var name: String = ""
    }

    struct Book: EntityType {
      typealias EntityIDRawType = String
      var entityID: EntityID { .init(rawID) }
      let rawID: String
      var name: String = "initial"
      let authorID: Author.EntityID
    }

    struct Database: DatabaseType {
      struct Schema: EntitySchemaType {
        let book = Book.EntityTableKey()
        let author = Author.EntityTableKey()
      }
      struct Indexes: IndexesType {
        let allBooks = IndexKey<OrderedIDIndex<Book>>()
        let booksByAuthor = IndexKey<GroupByEntityIndex<Author, Book>>()
      }
      var _backingStorage: BackingStorage = .init()

      static var middlewares: [DatabaseMiddleware<Database>] {
        [DatabaseMiddleware(name: "delete books of deleted authors") { context in
          for author in context.changes.author.deleted {
            context.entities.book.delete(context.indexes.booksByAuthor.ids(in: author))
          }
        }]
      }
    }

    struct RootState: Equatable { var database = Database() }

    let store = Store<RootState, Never>(initialState: .init())
    try store.commit { (state) throws(DatabaseError) in
      try state.database.performBatchUpdates { (context) throws(DatabaseError) in
        let author = context.entities.author.insert(Author(rawID: "leguin", name: "Ursula K. Le Guin"))
        let book = context.entities.book.insert(Book(rawID: "earthsea", authorID: author.entityID))
        try context.indexes.allBooks.append(book.entityID)
        try context.indexes.booksByAuthor.append(book.entityID, to: author.entityID)
      }
    }

    let book = store.state.database.entities.book.find(by: .init("earthsea"))
    let shelf = store.state.database.entities.book.find(in: store.state.database.indexes.allBooks)

    let followed: Derived<Book?> = store.derivedEntity(Book.EntityID("earthsea"), in: \.database)
    let ordered: Derived<[Book]> = store.derivedEntities(in: \.database, orderedBy: \.allBooks)

    XCTAssertEqual(book?.authorID, .init("leguin"))
    XCTAssertEqual(shelf.map(\.rawID), ["earthsea"])
    XCTAssertEqual(followed.value, book)
    XCTAssertEqual(ordered.value, shelf)

    store.commit { $0.database.performBatchUpdates { $0.entities.author.delete(.init("leguin")) } }
    XCTAssertNil(followed.value)
    XCTAssertEqual(ordered.value, [])
    XCTAssertEqual(store.state.database.entities.book.count, 0)
  }
}
