import Foundation
@testable import VergeORM
import XCTest

/// The equality rules built on version stamps: equal versions mean equal
/// contents, a database and the one a batch made from it by changing
/// entities differ, a batch that changes no entity keeps the table (and,
/// without index writes, the database) as it was, and everything else is
/// compared by content.
final class VersionLineageTests: XCTestCase {
  override func setUp() {
    Library.setInvariantChecksAfterEachBatch(true)
  }

  private func authors(_ names: [(String, String)]) -> [Author] {
    names.map { Author(rawID: $0.0, name: $0.1) }
  }

  func testSameEntitiesWithDifferentHistoriesCompareEqual() throws {
    var forward = Library()
    forward.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin"), ("a2", "Herbert")])) }
    var backward = Library()
    backward.performBatchUpdates { $0.entities.author.insert(Author(rawID: "a2", name: "Herbert")) }
    backward.performBatchUpdates { $0.entities.author.insert(Author(rawID: "a1", name: "Le Guin")) }
    XCTAssertNotEqual(forward._backingStorage.version, backward._backingStorage.version)
    XCTAssertTrue(forward == backward)
    XCTAssertTrue(backward == forward)
    XCTAssertEqual(forward.entities.author, backward.entities.author)

    // Changed and changed back over two batches: a new version, equal contents.
    var roundTrip = forward
    try roundTrip.performBatchUpdates { (context) throws(DatabaseError) in
      try context.entities.author.update(.init("a1")) { $0.name = "Ursula" }
    }
    let detour = roundTrip
    try roundTrip.performBatchUpdates { (context) throws(DatabaseError) in
      try context.entities.author.update(.init("a1")) { $0.name = "Le Guin" }
    }
    XCTAssertNotEqual(roundTrip._backingStorage.version, forward._backingStorage.version)
    XCTAssertTrue(roundTrip == forward)
    XCTAssertFalse(roundTrip == detour)
    XCTAssertFalse(detour == forward)

    // Different contents with unrelated histories still differ.
    var other = Library()
    other.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin"), ("a2", "Tolkien")])) }
    XCTAssertFalse(other == forward)
    XCTAssertFalse(forward == other)
  }

  func testBatchThatChangesAnEntityDiffersFromItsPredecessorBothWays() throws {
    var database = Library()
    database.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin")])) }
    let before = database
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      try context.entities.author.update(.init("a1")) { $0.name = "Ursula" }
    }
    XCTAssertEqual(database._backingStorage.changedFrom, before._backingStorage.version)
    XCTAssertFalse(database == before)
    XCTAssertFalse(before == database)
    let table = database._backingStorage.table(Author.self)
    XCTAssertEqual(table.previousVersion, before._backingStorage.table(Author.self).version)
    XCTAssertTrue(table.touched.contains(.init("a1")))
    XCTAssertFalse(table.touched.contains(.init("a2")))
    XCTAssertFalse(database.entities.author == before.entities.author)

    // The first batch of an empty database differs from the empty one.
    var first = Library()
    first.performBatchUpdates { $0.entities.author.insert(Author(rawID: "a1")) }
    XCTAssertFalse(first == Library())
    XCTAssertFalse(Library() == first)
  }

  func testBatchThatWritesAnEqualEntityKeepsTheVersions() throws {
    var database = Library()
    database.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin"), ("a2", "Herbert")])) }
    let before = database
    let result = try database.performBatchUpdatesReportingChanges { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a1", name: "Le Guin"))
      try context.entities.author.update(.init("a2")) { $0.name = "Herbert" }
    }
    XCTAssertEqual(database._backingStorage.version, before._backingStorage.version)
    XCTAssertEqual(
      database._backingStorage.table(Author.self).version, before._backingStorage.table(Author.self).version)
    XCTAssertTrue(database.entities.author.storage.entities.isIdentical(to: before.entities.author.storage.entities))
    XCTAssertTrue(database == before)
    // The report still names what the batch wrote.
    XCTAssertEqual(result.changes.author.updated, [.init("a1"), .init("a2")])
  }

  func testBatchThatUndoesItsOwnChangesKeepsTheVersions() throws {
    var database = Library()
    database.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin"), ("a2", "Herbert")])) }
    let before = database
    let result = try database.performBatchUpdatesReportingChanges { (context) throws(DatabaseError) in
      try context.entities.author.update(.init("a1")) { $0.name = "changed" }
      try context.entities.author.update(.init("a1")) { $0.name = "Le Guin" }
      context.entities.author.insert(Author(rawID: "tmp"))
      context.entities.author.delete(.init("tmp"))
      context.entities.author.delete(.init("a2"))
      context.entities.author.insert(Author(rawID: "a2", name: "Herbert"))
    }
    XCTAssertEqual(database._backingStorage.version, before._backingStorage.version)
    XCTAssertTrue(database == before)
    XCTAssertEqual(result.changes.author.updated, [.init("a1"), .init("a2")])
    XCTAssertTrue(result.changes.author.inserted.isEmpty)
    XCTAssertTrue(result.changes.author.deleted.isEmpty)

    // A change among many writes is kept, and only it is recorded as touched.
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a1", name: "Le Guin"))
      try context.entities.author.update(.init("a2")) { $0.name = "Frank" }
      try context.entities.author.update(.init("a1")) { $0.name = "Le Guin" }
    }
    XCTAssertFalse(database == before)
    let table = database._backingStorage.table(Author.self)
    XCTAssertTrue(table.touched.contains(.init("a2")))
    XCTAssertFalse(table.touched.contains(.init("a1")))
  }

  func testBatchThatThrowsLeavesVersionsUntouched() {
    var database = Library()
    database.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin")])) }
    let before = database
    XCTAssertThrowsError(
      try database.performBatchUpdates { (context) throws(DatabaseError) in
        try context.entities.author.update(.init("a1")) { $0.name = "changed" }
        try context.entities.author.update(.init("missing")) { $0.name = "x" }
      }
    ) { error in
      XCTAssertEqual(error as? DatabaseError, .entityNotFound("\(Author.EntityID("missing"))"))
    }
    XCTAssertEqual(database._backingStorage.version, before._backingStorage.version)
    XCTAssertEqual(database._backingStorage.changedFrom, before._backingStorage.changedFrom)
    XCTAssertEqual(
      database._backingStorage.table(Author.self).version, before._backingStorage.table(Author.self).version)
    XCTAssertEqual(database.entities.author.find(by: .init("a1"))?.name, "Le Guin")
    XCTAssertTrue(database == before)
  }

  func testIndexOnlyBatchIsComparedByContent() throws {
    var database = Library()
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a1"))
      context.entities.book.insert([Book(rawID: "b1", authorID: .init("a1")), Book(rawID: "b2", authorID: .init("a1"))])
      try context.indexes.allBooks.append(.init("b1"))
      try context.indexes.allBooks.append(.init("b2"))
    }
    let before = database
    // A move to the same place writes the index but changes nothing.
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      try context.indexes.allBooks.move(from: 0, to: 0)
    }
    XCTAssertNotEqual(database._backingStorage.version, before._backingStorage.version)
    XCTAssertNil(database._backingStorage.changedFrom)
    XCTAssertTrue(database == before)
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      try context.indexes.allBooks.move(from: 0, to: 1)
    }
    XCTAssertFalse(database == before)
  }

  func testABatchThatChangesNoEntityLeavesTheDatabaseUnchanged() throws {
    var library = Library()
    library.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin")])) }
    let store = Store<LibraryState, Never>(initialState: LibraryState(library: library))
    let deliveries = LockedCounter()
    // The commit writes, so it notifies; the database compares equal, so a
    // subscriber that asks whether it changed is told it did not.
    let subscription = store.sinkState(dropsFirst: true) { changes in
      changes.ifChanged(\.library) { _ in deliveries.increment() }
    }
    store.commit {
      $0.library.performBatchUpdates { $0.entities.author.insert(Author(rawID: "a1", name: "Le Guin")) }
    }
    XCTAssertEqual(deliveries.value, 0)
    try store.commit { (state) throws(DatabaseError) in
      try state.library.performBatchUpdates { (context) throws(DatabaseError) in
        try context.entities.author.update(.init("a1")) { $0.name = "Ursula" }
      }
    }
    XCTAssertEqual(deliveries.value, 1)
    subscription.cancel()
  }

  func testDecodedDatabaseIsComparedByContentAndWakesDerivedEntities() throws {
    var library = Library()
    library.performBatchUpdates { $0.entities.author.insert(authors([("a1", "Le Guin")])) }
    let decoded = try JSONDecoder().decode(Library.self, from: JSONEncoder().encode(library))
    XCTAssertTrue(decoded == library)
    XCTAssertTrue(library == decoded)
    XCTAssertNil(decoded._backingStorage.changedFrom)

    // A derived entity that last saw a never-written table sees the decoded one.
    let store = Store<LibraryState, Never>(initialState: LibraryState())
    let author = store.derivedEntity(Author.EntityID("a1"), in: \.library)
    XCTAssertNil(author.value)
    store.commit { $0.library = decoded }
    XCTAssertEqual(author.value?.name, "Le Guin")
  }

  func testBigBatchLeavesItsIDsUnlistedAndDerivedEntitiesStillSeeTheirChanges() {
    let count = TouchedIDs<Author.EntityID>.listLimit + 1
    let store = Store<LibraryState, Never>(initialState: LibraryState())
    store.commit { $0.library.performBatchUpdates { $0.entities.author.insert(authors([("a0", "first")])) } }
    let first = store.derivedEntity(Author.EntityID("a0"), in: \.library)
    let last = store.derivedEntity(Author.EntityID("a\(count - 1)"), in: \.library)
    XCTAssertEqual(first.value?.name, "first")
    XCTAssertNil(last.value)

    // One more changed ID than a batch lists: every ID counts as touched.
    store.commit {
      $0.library.performBatchUpdates { context in
        context.entities.author.insert((0..<count).map { Author(rawID: "a\($0)", name: "n\($0)") })
      }
    }
    let table = store.state.library._backingStorage.table(Author.self)
    XCTAssertTrue(table.touched.contains(.init("a0")))
    XCTAssertTrue(table.touched.contains(.init("never written")))
    XCTAssertEqual(first.value?.name, "n0")
    XCTAssertEqual(last.value?.name, "n\(count - 1)")

    // A small batch after it lists its IDs again.
    store.commit {
      $0.library.performBatchUpdates { context in
        context.entities.author.insert([Author(rawID: "a1", name: "x"), Author(rawID: "a2", name: "y")])
      }
    }
    let relisted = store.state.library._backingStorage.table(Author.self)
    XCTAssertTrue(relisted.touched.contains(.init("a1")))
    XCTAssertFalse(relisted.touched.contains(.init("a0")))
    XCTAssertEqual(first.value?.name, "n0")
  }
}
