import Foundation
import VergeORM
import XCTest

/// Entities inserted and deleted within one batch leave no trace in any index,
/// so the database can always be encoded and decoded back.
final class SameBatchDeletionTests: XCTestCase {
  private func roundTrip(_ database: Library, file: StaticString = #filePath, line: UInt = #line) throws -> Library {
    let decoded = try JSONDecoder().decode(Library.self, from: JSONEncoder().encode(database))
    XCTAssertTrue(decoded == database, "the decoded database differs", file: file, line: line)
    return decoded
  }

  /// An owner with a group, inserted by the batch that then deletes it with `delete`.
  private func insertOwnerWithGroup(
    _ context: DatabaseBatchUpdatesContext<Library>, _ raw: String
  ) throws(DatabaseError) {
    context.entities.author.insert(Author(rawID: raw, name: ""))
    let book = context.entities.book.insert(Book(rawID: "b-\(raw)", name: "", authorID: .init(raw)))
    try context.indexes.booksByAuthor.append(book.entityID, to: .init(raw))
  }

  func testGroupOfAnOwnerInsertedAndDeletedInOneBatchIsDropped() throws {
    // An owner and a member of its group, inserted in one batch that then
    // deletes the owner: no index keeps the group.
    var db = Library()
    try db.performBatchUpdates { (c) throws(DatabaseError) in
      c.entities.author.insert(Author(rawID: "x", name: ""))
      let b = c.entities.book.insert(Book(rawID: "b", name: "", authorID: .init("x")))
      try c.indexes.booksByAuthor.append(b.entityID, to: .init("x"))
      c.entities.author.delete(.init("x"))
    }
    XCTAssertEqual(Array(db.indexes.booksByAuthor.groups), [])
    XCTAssertEqual(db.invariantViolations(), [])
    let decoded = try roundTrip(db)
    XCTAssertEqual(decoded.entities.author.count, 0)
  }

  func testGroupsOfOwnersDeletedManyAtOnceAreDropped() throws {
    var db = Library()
    try db.performBatchUpdates { (c) throws(DatabaseError) in try insertOwnerWithGroup(c, "old") }
    try db.performBatchUpdates { (c) throws(DatabaseError) in
      try insertOwnerWithGroup(c, "new")
      c.entities.author.delete([Author.EntityID("new"), Author.EntityID("old"), Author.EntityID("missing")])
    }
    XCTAssertEqual(Array(db.indexes.booksByAuthor.groups), [])
    // The middleware deleted the books of the author that existed before the batch.
    XCTAssertNil(db.entities.book.find(by: .init("b-old")))
    XCTAssertEqual(db.invariantViolations(), [])
    _ = try roundTrip(db)
  }

  func testGroupsOfOwnersDeletedAllAtOnceAreDropped() throws {
    var db = Library()
    try db.performBatchUpdates { (c) throws(DatabaseError) in try insertOwnerWithGroup(c, "old") }
    try db.performBatchUpdates { (c) throws(DatabaseError) in
      try insertOwnerWithGroup(c, "new")
      c.entities.author.deleteAll()
    }
    XCTAssertEqual(Array(db.indexes.booksByAuthor.groups), [])
    XCTAssertEqual(db.entities.author.count, 0)
    XCTAssertEqual(db.invariantViolations(), [])
    _ = try roundTrip(db)
  }

  func testOwnerDeletedAndInsertedAgainKeepsItsGroup() throws {
    var db = Library()
    try db.performBatchUpdates { (c) throws(DatabaseError) in
      try insertOwnerWithGroup(c, "x")
      c.entities.author.delete(.init("x"))
      c.entities.author.insert(Author(rawID: "x", name: "back"))
    }
    XCTAssertEqual(db.indexes.booksByAuthor.ids(in: .init("x")), [.init("b-x")])
    XCTAssertEqual(db.invariantViolations(), [])
    _ = try roundTrip(db)
  }

  /// Members inserted, put in every index kind, then deleted by each form of delete.
  func testMembersInsertedAndDeletedInOneBatchLeaveNoIndexEntry() throws {
    let deletions: [(String, (TableContext<Library, Book>) -> Void)] = [
      ("delete", { books in books.delete(.init("m")) }),
      ("delete many", { books in books.delete([Book.EntityID("m"), Book.EntityID("missing")]) }),
      ("delete all", { books in books.deleteAll() }),
    ]
    for (form, delete) in deletions {
      var db = Library()
      try db.performBatchUpdates { (c) throws(DatabaseError) in
        c.entities.author.insert(Author(rawID: "a", name: ""))
        let m = c.entities.book.insert(Book(rawID: "m", name: "kept?", authorID: .init("a")))
        try c.indexes.allBooks.append(m.entityID)
        try c.indexes.bookByName.set(m.entityID, for: m.name)
        try c.indexes.booksByGenre.append(m.entityID, to: m.genre)
        try c.indexes.booksByAuthor.append(m.entityID, to: m.authorID)
        delete(c.entities.book)
      }
      XCTAssertEqual(db.indexes.allBooks.ids, [], form)
      XCTAssertNil(db.indexes.bookByName["kept?"], form)
      XCTAssertEqual(Array(db.indexes.booksByGenre.groups), [], form)
      XCTAssertEqual(Array(db.indexes.booksByAuthor.groups), [], form)
      XCTAssertEqual(db.invariantViolations(), [], form)
      _ = try roundTrip(db)
    }
  }
}
