@_spi(Testing) import VergeORM

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

/// A small seeded generator (SplitMix64) so random tests reproduce.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A key whose hash collides on purpose, to exercise collision buckets.
struct CollidingKey: Hashable, Sendable {
  let value: Int
  func hash(into hasher: inout Hasher) { hasher.combine(value % 3) }
}
