import VergeORM
import XCTest

/// The VergeORM fragment of Verge's documentation, which DESIGN.md promises
/// compiles unchanged.
final class DesignSnippetTests: XCTestCase {
  func testORMSnippetCompilesAndBehaves() {
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
    XCTAssertEqual(store.state.database.entities.author.count, 10)
    XCTAssertEqual(store.state.database.entities.book.count, 0)
  }
}
