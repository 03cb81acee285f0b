import Foundation
@testable import VergeORM
import VergeTestSupport
import XCTest

/// Random batches applied to the database and to a naive reference made of
/// arrays, compared after every step, and the database round-tripped through
/// `Codable` after every step.
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

    /// Deletes the author; its books and group are dealt with when the
    /// batch ends (`finishBatch`), as the database does.
    mutating func deleteAuthor(_ id: Author.EntityID) {
      authors.removeAll { $0.entityID == id }
    }

    /// What the end of a batch does: `Library`'s middleware deletes the
    /// books of the authors that existed before the batch and not after it
    /// (the net deletions), then the groups of every author that no longer
    /// exists are dropped, including authors the batch inserted and deleted.
    mutating func finishBatch(authorsBefore: Set<Author.EntityID>) {
      let now = Set(authors.map(\.entityID))
      for author in authorsBefore.subtracting(now) {
        for book in booksByAuthor.first(where: { $0.0 == author })?.1 ?? [] { deleteBook(book) }
      }
      booksByAuthor.removeAll { !now.contains($0.0) }
    }

    /// Inserts a book and puts it in every index.
    mutating func insertIndexedBook(_ book: Book, at position: Int) {
      books.append(book)
      allBooks.insert(book.entityID, at: position)
      bookByName.removeAll { $0.0 == book.name }
      bookByName.append((book.name, book.entityID))
      if let i = booksByGenre.firstIndex(where: { $0.0 == book.genre }) {
        booksByGenre[i].1.append(book.entityID)
      } else {
        booksByGenre.append((book.genre, [book.entityID]))
      }
      if let i = booksByAuthor.firstIndex(where: { $0.0 == book.authorID }) {
        booksByAuthor[i].1.append(book.entityID)
      } else {
        booksByAuthor.append((book.authorID, [book.entityID]))
      }
    }

    func hasBook(_ id: Book.EntityID) -> Bool { books.contains { $0.entityID == id } }
    func hasAuthor(_ id: Author.EntityID) -> Bool { authors.contains { $0.entityID == id } }
  }

  /// Inserts a book in the batch and puts it in every index, as
  /// `Reference.insertIndexedBook` does.
  private func insertIndexedBook(
    _ book: Book, at position: Int, in context: DatabaseBatchUpdatesContext<Library>
  ) throws(DatabaseError) {
    context.entities.book.insert(book)
    try context.indexes.allBooks.insert(book.entityID, at: position)
    try context.indexes.bookByName.set(book.entityID, for: book.name)
    try context.indexes.booksByGenre.append(book.entityID, to: book.genre)
    try context.indexes.booksByAuthor.append(book.entityID, to: book.authorID)
  }

  /// A form of deletion, chosen at random for the steps that delete.
  enum DeletionForm: CaseIterable {
    case one, many, all
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
      let operation = Int.random(in: 0..<16, using: &rng)
      let bookID = Book.EntityID("b\(Int.random(in: 0..<60, using: &rng))")
      let authorID = Author.EntityID("a\(Int.random(in: 0..<12, using: &rng))")
      let position = Int.random(in: 0..<40, using: &rng)
      let genre = ["novel", "poetry", "essay"].randomElement(using: &rng)!
      let name = "n\(Int.random(in: 0..<30, using: &rng))"
      let failing = Int.random(in: 0..<10, using: &rng) == 0
      let form = DeletionForm.allCases.randomElement(using: &rng)!
      let before = (database, reference)
      let authorsBefore = Set(reference.authors.map(\.entityID))
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
            guard expected.hasAuthor(authorID), !expected.hasBook(bookID) else { break }
            let book = Book(rawID: bookID.raw, name: name, genre: genre, authorID: authorID)
            let at = min(position, expected.allBooks.count)
            try insertIndexedBook(book, at: at, in: context)
            expected.insertIndexedBook(book, at: at)
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
          case 13:
            try context.indexes.booksByGenre.move(in: genre, from: 0, to: 0)
          case 14:
            // An author inserted, given books (so a group), and deleted again
            // within the batch, possibly with other authors.
            let author = Author(rawID: authorID.raw, name: name)
            context.entities.author.insert(author)
            expected.deleteAuthor(authorID)
            expected.authors.append(author)
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
              let id = Book.EntityID("b\(Int.random(in: 0..<60, using: &rng))")
              guard !expected.hasBook(id) else { continue }
              let book = Book(rawID: id.raw, name: name, genre: genre, authorID: authorID)
              let at = min(position, expected.allBooks.count)
              try insertIndexedBook(book, at: at, in: context)
              expected.insertIndexedBook(book, at: at)
            }
            switch form {
            case .one:
              context.entities.author.delete(authorID)
              expected.deleteAuthor(authorID)
            case .many:
              let other = Author.EntityID("a\(Int.random(in: 0..<12, using: &rng))")
              context.entities.author.delete([authorID, other])
              expected.deleteAuthor(authorID)
              expected.deleteAuthor(other)
            case .all:
              context.entities.author.deleteAll()
              expected.authors.removeAll()
            }
          default:
            // A book inserted, put in every index and deleted again within
            // the batch.
            guard expected.hasAuthor(authorID), !expected.hasBook(bookID) else { break }
            let book = Book(rawID: bookID.raw, name: name, genre: genre, authorID: authorID)
            let at = min(position, expected.allBooks.count)
            try insertIndexedBook(book, at: at, in: context)
            expected.insertIndexedBook(book, at: at)
            switch form {
            case .one:
              context.entities.book.delete(bookID)
              expected.deleteBook(bookID)
            case .many:
              let other = Book.EntityID("b\(Int.random(in: 0..<60, using: &rng))")
              context.entities.book.delete([bookID, other])
              expected.deleteBook(bookID)
              expected.deleteBook(other)
            case .all:
              context.entities.book.deleteAll()
              for book in expected.books { expected.deleteBook(book.entityID) }
            }
          }
          if failing { throw Abort() }
        }
        XCTAssertFalse(failing)
        expected.finishBatch(authorsBefore: authorsBefore)
        reference = expected
      } catch is Abort {
        XCTAssertTrue(database == before.0, "seed \(seed) step \(step): a failed batch changed the database")
      } catch DatabaseError.positionOutOfRange {
        XCTAssertTrue(database == before.0)
      }
      try compare(database, reference, "seed \(seed) step \(step) operation \(operation)")
      // Every database a batch produces can be encoded and decoded back.
      let decoded = try JSONDecoder().decode(Library.self, from: JSONEncoder().encode(database))
      XCTAssertTrue(decoded == database, "seed \(seed) step \(step): the decoded database differs")
      try compare(decoded, reference, "seed \(seed) step \(step) decoded")
      // Go on from the decoded copy every other step, so later batches run
      // on decoded databases too.
      if step.isMultiple(of: 2) { database = decoded }
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
