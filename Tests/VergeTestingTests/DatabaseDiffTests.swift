import VergeORM
import VergeTesting
import XCTest

struct Shelf: Equatable, Sendable {
  var database = ShelfDatabase()
}

struct ShelfBook: EntityType, Equatable {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  var name: String
  var authorID: String
}

struct ShelfAuthor: EntityType, Equatable {
  typealias EntityIDRawType = String
  var entityID: EntityID { .init(rawID) }
  let rawID: String
  var name: String
}

struct ShelfDatabase: DatabaseType {
  struct Schema: EntitySchemaType {
    let book = ShelfBook.EntityTableKey()
    let author = ShelfAuthor.EntityTableKey()
  }
  struct Indexes: IndexesType {
    let allBooks = IndexKey<OrderedIDIndex<ShelfBook>>()
    let bookByName = IndexKey<HashIndex<String, ShelfBook>>()
    let booksByAuthor = IndexKey<GroupByEntityIndex<ShelfAuthor, ShelfBook>>()
  }
  var _backingStorage: BackingStorage = .init()
}

/// A method reducer over a VergeORM database, for the test store.
final class ShelfReducer: ReducerType {
  typealias TargetState = Shelf

  func add(_ id: String, name: String, by author: String) -> Mutation {
    .init { state in
      _ = try? state.database.performBatchUpdates { (context) throws(DatabaseError) in
        let book = context.entities.book.insert(ShelfBook(rawID: id, name: name, authorID: author))
        try context.indexes.allBooks.append(book.entityID)
        try context.indexes.bookByName.set(book.entityID, for: name)
        try context.indexes.booksByAuthor.append(book.entityID, to: .init(author))
      }
    }
  }

  /// A database holding the author `a1` and `books`, indexed.
  static func seeded(_ books: [(String, String)]) -> ShelfDatabase {
    var database = ShelfDatabase()
    _ = try? database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(ShelfAuthor(rawID: "a1", name: "Le Guin"))
      for (id, name) in books {
        let book = context.entities.book.insert(ShelfBook(rawID: id, name: name, authorID: "a1"))
        try context.indexes.allBooks.append(book.entityID)
        try context.indexes.bookByName.set(book.entityID, for: name)
        try context.indexes.booksByAuthor.append(book.entityID, to: .init("a1"))
      }
    }
    return database
  }

  func rename(_ id: String, to name: String) -> Mutation {
    .init { state in
      _ = try? state.database.performBatchUpdates { (context) throws(DatabaseError) in
        try context.entities.book.update(.init(id)) { $0.name = name }
      }
    }
  }
}

/// Diffs of VergeORM state speak the model: table, entity ID and field,
/// index contents; never storage or version stamps.
final class DatabaseDiffTests: XCTestCase {
  private func shelf(_ books: [(String, String)]) -> Shelf {
    Shelf(database: ShelfReducer.seeded(books))
  }

  func testAChangedFieldShowsByTableIDAndField() {
    let expected = shelf([("b1", "A")])
    var actual = expected
    _ = try? actual.database.performBatchUpdates { (context) throws(DatabaseError) in
      try context.entities.book.update(.init("b1")) { $0.name = "B" }
    }
    XCTAssertEqual(
      StateDiff.render(expected: expected, actual: actual),
      """
        database.book["b1"].name
          expected: "A"
          actual:   "B"
      """)
  }

  func testAnInsertedEntityAndItsIndexEntriesShowAsSuch() {
    let expected = shelf([("b1", "A")])
    let actual = shelf([("b1", "A"), ("b2", "C")])
    XCTAssertEqual(
      StateDiff.render(expected: expected, actual: actual),
      """
        database.book["b2"]
          expected: (absent)
          actual:   ShelfBook(rawID: "b2", name: "C", authorID: "a1")
        database.indexes.allBooks[1]
          expected: (absent)
          actual:   "b2"
        database.indexes.bookByName["C"]
          expected: (absent)
          actual:   "b2"
        database.indexes.booksByAuthor["a1"][1]
          expected: (absent)
          actual:   "b2"
      """)
  }

  func testADeletedEntityShowsAsSuch() {
    let expected = shelf([("b1", "A")])
    var actual = expected
    _ = try? actual.database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.book.delete(.init("b1"))
    }
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual).map(\.path),
      [
        #"database.book["b1"]"#, "database.indexes.allBooks[0]", #"database.indexes.bookByName["A"]"#,
        #"database.indexes.booksByAuthor["a1"]"#,
      ])
    XCTAssertEqual(
      StateDiff.differences(expected: expected, actual: actual).first,
      .init(
        path: #"database.book["b1"]"#, expected: #"ShelfBook(rawID: "b1", name: "A", authorID: "a1")"#,
        actual: "(absent)"))
  }

  func testNoStorageOrVersionStampShows() {
    let expected = shelf([("b1", "A")])
    let actual = shelf([("b1", "B")])
    let text = StateDiff.render(expected: expected, actual: actual)
    XCTAssertFalse(text.contains("_backingStorage"), text)
    XCTAssertFalse(text.contains("version"), text)
  }

  func testAWrongORMExpectationFailsWithTheEntityField() async {
    let log = FailureLog()
    let store = TestStore(initialState: shelf([("b1", "A")]), reducer: ShelfReducer(), reporter: log.reporter)
    let line: UInt = #line + 1
    store.commit({ $0.rename("b1", to: "B") }) { $0 = self.shelf([("b1", "C")]) }
    await store.finish()
    XCTAssertEqual(
      log.all,
      [
        .init(
          message: """
            commit(rename(_:to:)): the state is not what was expected:
              database.book["b1"].name
                expected: "C"
                actual:   "B"
              database.indexes.bookByName["C"]
                expected: "b1"
                actual:   (absent)
              database.indexes.bookByName["A"]
                expected: (absent)
                actual:   "b1"
            """, line: line)
      ])
  }
}
