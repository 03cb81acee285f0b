import VergeORM

struct Book: EntityType {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  var name: String = "initial"
  var genre: String = "novel"
  let authorID: Author.EntityID
}

struct Author: EntityType {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  var name: String = ""
}

struct Library: DatabaseType {
  struct Schema: EntitySchemaType {
    let book = Book.EntityTableKey()
    let author = Author.EntityTableKey()
  }
  struct Indexes: IndexesType {
    let allBooks = IndexKey<OrderedIDIndex<Book>>()
    let bookByName = IndexKey<HashIndex<String, Book>>()
    let booksByGenre = IndexKey<GroupByIndex<String, Book>>()
    let booksByAuthor = IndexKey<GroupByEntityIndex<Author, Book>>()
  }
  var _backingStorage: BackingStorage = .init()

  static var middlewares: [DatabaseMiddleware<Library>] {
    [DatabaseMiddleware(name: "delete the books of deleted authors") { context in
      for author in context.changes.author.deleted {
        context.entities.book.delete(context.indexes.booksByAuthor.ids(in: author))
      }
    }]
  }
}

struct LibraryState: Equatable {
  var library = Library()
  var counter = 0
}
