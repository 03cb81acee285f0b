@_spi(Testing) @testable import VergeORM
import VergeTestSupport
import XCTest

/// Random batches applied to the database and to a naive reference made of
/// arrays, compared after every step.
final class ModelBasedTests: XCTestCase {
  /// The reference: plain arrays, searched linearly.
  struct Reference {
    var authors: [Author] = []
    var books: [Book] = []
    var allBooks: [Book.EntityID] = []
    var bookByName: [(String, Book.EntityID)] = []
    var booksByGenre: [(String, [Book.EntityID])] = []
    var booksByAuthor: [(Author.EntityID, [Book.EntityID])] = []

    mutating func deleteBook(_ id: Book.EntityID) {
      books.removeAll { $0.entityID == id }
      allBooks.removeAll { $0 == id }
      bookByName.removeAll { $0.1 == id }
      for i in booksByGenre.indices { booksByGenre[i].1.removeAll { $0 == id } }
      booksByGenre.removeAll { $0.1.isEmpty }
      for i in booksByAuthor.indices { booksByAuthor[i].1.removeAll { $0 == id } }
      booksByAuthor.removeAll { $0.1.isEmpty }
    }

    mutating func deleteAuthor(_ id: Author.EntityID) {
      guard authors.contains(where: { $0.entityID == id }) else { return }
      authors.removeAll { $0.entityID == id }
      for book in booksByAuthor.first(where: { $0.0 == id })?.1 ?? [] { deleteBook(book) }
      booksByAuthor.removeAll { $0.0 == id }
    }
  }

  override func setUp() {
    Library.setInvariantChecksAfterEachBatch(true)
  }

  func testRandomBatchesMatchReference() throws {
    for seed: UInt64 in [1, 2, 3] {
      try run(seed: seed, steps: 1_500)
    }
  }

  private func run(seed: UInt64, steps: Int) throws {
    var rng = SplitMix64(seed: seed)
    var database = Library()
    var reference = Reference()
    var history: [(Library, Reference)] = []
    for step in 0..<steps {
      let operation = Int.random(in: 0..<14, using: &rng)
      let bookID = Book.EntityID("b\(Int.random(in: 0..<60, using: &rng))")
      let authorID = Author.EntityID("a\(Int.random(in: 0..<12, using: &rng))")
      let position = Int.random(in: 0..<40, using: &rng)
      let genre = ["novel", "poetry", "essay"].randomElement(using: &rng)!
      let name = "n\(Int.random(in: 0..<30, using: &rng))"
      let failing = Int.random(in: 0..<10, using: &rng) == 0
      let before = (database, reference)
      var expected = reference
      struct Abort: Error {}
      do {
        try database.performBatchUpdates { (context) throws(any Error) in
          switch operation {
          case 0:
            let author = Author(rawID: authorID.raw, name: name)
            context.entities.author.insert(author)
            if let i = expected.authors.firstIndex(where: { $0.entityID == authorID }) {
              expected.authors[i] = author
            } else {
              expected.authors.append(author)
            }
          case 1, 2:
            // Insert a book of an existing author and index it everywhere.
            guard expected.authors.contains(where: { $0.entityID == authorID }) else { break }
            if expected.books.contains(where: { $0.entityID == bookID }) { break }
            let book = Book(rawID: bookID.raw, name: name, genre: genre, authorID: authorID)
            context.entities.book.insert(book)
            expected.books.append(book)
            let at = min(position, expected.allBooks.count)
            try context.indexes.allBooks.insert(bookID, at: at)
            expected.allBooks.insert(bookID, at: at)
            try context.indexes.bookByName.set(bookID, for: name)
            expected.bookByName.removeAll { $0.0 == name }
            expected.bookByName.append((name, bookID))
            try context.indexes.booksByGenre.append(bookID, to: genre)
            if let i = expected.booksByGenre.firstIndex(where: { $0.0 == genre }) {
              expected.booksByGenre[i].1.append(bookID)
            } else {
              expected.booksByGenre.append((genre, [bookID]))
            }
            try context.indexes.booksByAuthor.append(bookID, to: authorID)
            if let i = expected.booksByAuthor.firstIndex(where: { $0.0 == authorID }) {
              expected.booksByAuthor[i].1.append(bookID)
            } else {
              expected.booksByAuthor.append((authorID, [bookID]))
            }
          case 3:
            do {
              try context.entities.book.update(bookID) { $0.name = name }
              let i = expected.books.firstIndex { $0.entityID == bookID }!
              expected.books[i].name = name
            } catch DatabaseError.entityNotFound {
              XCTAssertFalse(expected.books.contains { $0.entityID == bookID })
            }
          case 4:
            context.entities.book.delete(bookID)
            expected.deleteBook(bookID)
          case 5:
            context.entities.author.delete(authorID)
            expected.deleteAuthor(authorID)
          case 6:
            let ids = (0..<4).map { _ in Book.EntityID("b\(Int.random(in: 0..<60, using: &rng))") }
            context.entities.book.delete(ids)
            for id in ids { expected.deleteBook(id) }
          case 7:
            let count = expected.allBooks.count
            guard count > 0 else { break }
            let from = position % count
            let to = (position * 7 + 3) % count
            try context.indexes.allBooks.move(from: from, to: to)
            expected.allBooks.insert(expected.allBooks.remove(at: from), at: to)
          case 8:
            do {
              try context.indexes.allBooks.remove(bookID)
              XCTAssertNotNil(expected.allBooks.firstIndex(of: bookID))
              expected.allBooks.removeAll { $0 == bookID }
            } catch DatabaseError.notInIndex {
              XCTAssertNil(expected.allBooks.firstIndex(of: bookID))
            }
          case 9:
            // Re-add a book that is in its table but not in `allBooks`.
            guard expected.books.contains(where: { $0.entityID == bookID }),
              !expected.allBooks.contains(bookID)
            else { break }
            try context.indexes.allBooks.append(bookID)
            expected.allBooks.append(bookID)
          case 10:
            // Bad input is refused with a typed error and changes nothing.
            XCTAssertThrowsError(try context.indexes.allBooks.append(Book.EntityID("missing"))) {
              XCTAssertEqual($0 as? DatabaseError, .entityNotFound("Book(missing)"))
            }
          case 11:
            if step % 50 == 0 {
              context.entities.book.deleteAll()
              for book in expected.books { expected.deleteBook(book.entityID) }
            }
          case 12:
            // Read your own writes inside the batch.
            let author = Author(rawID: authorID.raw, name: "fresh")
            context.entities.author.insert(author)
            XCTAssertEqual(context.entities.author.find(by: authorID), author)
            XCTAssertTrue(context.changes.author.inserted.contains(authorID) || context.changes.author.updated.contains(authorID))
            if let i = expected.authors.firstIndex(where: { $0.entityID == authorID }) {
              expected.authors[i] = author
            } else {
              expected.authors.append(author)
            }
          default:
            try context.indexes.booksByGenre.move(in: genre, from: 0, to: 0)
          }
          if failing { throw Abort() }
        }
        XCTAssertFalse(failing)
        reference = expected
      } catch is Abort {
        XCTAssertTrue(database == before.0, "seed \(seed) step \(step): a failed batch changed the database")
      } catch DatabaseError.positionOutOfRange {
        XCTAssertTrue(database == before.0)
      }
      try compare(database, reference, "seed \(seed) step \(step) operation \(operation)")
      if step % 100 == 0 { history.append((database, reference)) }
    }
    // Earlier versions are untouched by later batches.
    for (old, expected) in history {
      try compare(old, expected, "seed \(seed) history")
    }
  }

  private func compare(_ database: Library, _ reference: Reference, _ where: String) throws {
    XCTAssertEqual(database.invariantViolations(), [], `where`)
    let books = database.entities.book
    XCTAssertEqual(books.count, reference.books.count, `where`)
    XCTAssertEqual(
      books.all().sorted { $0.rawID < $1.rawID }, reference.books.sorted { $0.rawID < $1.rawID }, `where`)
    XCTAssertEqual(
      database.entities.author.all().sorted { $0.rawID < $1.rawID },
      reference.authors.sorted { $0.rawID < $1.rawID }, `where`)
    XCTAssertEqual(database.indexes.allBooks.ids, reference.allBooks, `where`)
    XCTAssertEqual(books.find(in: database.indexes.allBooks).map(\.entityID), reference.allBooks, `where`)
    XCTAssertEqual(database.indexes.bookByName.count, reference.bookByName.count, `where`)
    for (name, id) in reference.bookByName {
      XCTAssertEqual(database.indexes.bookByName[name], id, `where`)
    }
    XCTAssertEqual(Set(database.indexes.booksByGenre.groups), Set(reference.booksByGenre.map(\.0)), `where`)
    for (genre, ids) in reference.booksByGenre {
      XCTAssertEqual(database.indexes.booksByGenre.ids(in: genre), ids, `where`)
    }
    XCTAssertEqual(Set(database.indexes.booksByAuthor.groups), Set(reference.booksByAuthor.map(\.0)), `where`)
    for (author, ids) in reference.booksByAuthor {
      XCTAssertEqual(database.indexes.booksByAuthor.ids(in: author), ids, `where`)
    }
  }
}
