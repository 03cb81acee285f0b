import Foundation
@testable import Verge
import VergeORM
import XCTest

/// A VergeORM database persisted through a store: it round-trips with its
/// indexes, and a database that decodes into something inconsistent is
/// refused like any other file.
final class DatabasePersistenceTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-orm-persistence-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func fill(_ store: Store<LibraryState, Never>) throws {
    try store.commit { state throws(DatabaseError) in
      try state.library.performBatchUpdates { (context) throws(DatabaseError) in
        context.entities.author.insert(Author(rawID: "a1", name: "Le Guin"))
        for index in 0..<200 {
          let book = context.entities.book.insert(
            Book(rawID: "b\(index)", name: "Book \(index)", genre: index.isMultiple(of: 2) ? "fantasy" : "novel",
                 authorID: .init("a1")))
          try context.indexes.allBooks.append(book.entityID)
          try context.indexes.bookByName.set(book.entityID, for: book.name)
          try context.indexes.booksByGenre.append(book.entityID, to: book.genre)
          try context.indexes.booksByAuthor.append(book.entityID, to: .init("a1"))
        }
      }
    }
  }

  func testADatabaseRoundTripsThroughPersistenceWithItsIndexes() throws {
    let file = directory.appendingPathComponent("library.state")
    let first = Store<LibraryState, Never>(initialState: LibraryState())
    let persistence = try first.persist(\.library, to: file)
    try fill(first)
    first.commit { $0.counter = 5 }
    try persistence.close()

    let second = Store<LibraryState, Never>(initialState: LibraryState())
    let restored = try second.persist(\.library, to: file)
    XCTAssertEqual(restored.restoreOutcome, .restored(version: 1))
    let library = second.state.library
    XCTAssertTrue(library == first.state.library)
    XCTAssertEqual(library.invariantViolations(), [])
    XCTAssertEqual(second.state.counter, 0, "only the database was persisted")
    XCTAssertEqual(library.entities.book.count, 200)
    XCTAssertEqual(library.indexes.bookByName["Book 7"], .init("b7"))
    XCTAssertEqual(library.indexes.booksByGenre.ids(in: "fantasy").count, 100)

    // Batches go on from the restored database, and are written.
    second.commit { state in
      state.library.performBatchUpdates { context in
        context.entities.author.delete(.init("a1"))
      }
    }
    try restored.close()
    let third = Store<LibraryState, Never>(initialState: LibraryState())
    try third.persist(\.library, to: file).close()
    XCTAssertEqual(third.state.library.entities.book.count, 0, "the middleware deleted the author's books")
    XCTAssertEqual(third.state.library.invariantViolations(), [])
  }

  func testAnInconsistentDatabaseIsRefusedAndMovedAside() throws {
    let file = directory.appendingPathComponent("library.state")
    let first = Store<LibraryState, Never>(initialState: LibraryState())
    let persistence = try first.persist(\.library, to: file)
    try fill(first)
    try persistence.close()
    // Empty the book table behind the indexes' back: a consistent frame
    // around a database whose indexes point at missing books.
    let (version, payload) = try StateFile.unframe(Data(contentsOf: file))
    var json = try JSONSerialization.jsonObject(with: payload) as! [String: Any]
    var tables = json["tables"] as! [String: Any]
    tables["book"] = [Any]()
    json["tables"] = tables
    try StateFile.frame(JSONSerialization.data(withJSONObject: json), version: version).write(to: file)
    let damaged = try Data(contentsOf: file)

    let second = Store<LibraryState, Never>(initialState: LibraryState())
    let refused = try second.persist(\.library, to: file)
    guard case .refused(.undecodable(let reason), let aside) = refused.restoreOutcome else {
      return XCTFail("\(refused.restoreOutcome)")
    }
    XCTAssertTrue(reason.contains("points at missing"), reason)
    XCTAssertEqual(try Data(contentsOf: aside), damaged)
    XCTAssertTrue(second.state.library == Library())
    try refused.close()
  }
}
