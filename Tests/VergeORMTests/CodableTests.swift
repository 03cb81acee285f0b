import Foundation
import VergeORM
import XCTest

final class CodableTests: XCTestCase {
  private func sample() throws -> Library {
    var database = Library()
    try database.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a1", name: "Le Guin"))
      let book = context.entities.book.insert(Book(rawID: "b1", name: "Earthsea", authorID: .init("a1")))
      try context.indexes.allBooks.append(book.entityID)
      try context.indexes.bookByName.set(book.entityID, for: "Earthsea")
      try context.indexes.booksByGenre.append(book.entityID, to: "fantasy")
      try context.indexes.booksByAuthor.append(book.entityID, to: .init("a1"))
    }
    return database
  }

  func testRoundTrip() throws {
    let database = try sample()
    let data = try JSONEncoder().encode(database)
    let decoded = try JSONDecoder().decode(Library.self, from: data)
    XCTAssertTrue(decoded == database)
    XCTAssertEqual(decoded.invariantViolations(), [])
    XCTAssertEqual(decoded.indexes.booksByAuthor.ids(in: .init("a1")), [.init("b1")])
    XCTAssertEqual(decoded.indexes.bookByName["Earthsea"], .init("b1"))
    XCTAssertTrue(try JSONDecoder().decode(Library.self, from: JSONEncoder().encode(Library())) == Library())
  }

  private func damage(_ edit: (inout [String: Any]) -> Void) throws -> Data {
    let data = try JSONEncoder().encode(try sample())
    var json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    edit(&json)
    return try JSONSerialization.data(withJSONObject: json)
  }

  private func assertRefused(_ data: Data, containing text: String, line: UInt = #line) {
    XCTAssertThrowsError(try JSONDecoder().decode(Library.self, from: data), line: line) { error in
      guard case .corruptedData(let reason) = error as? DatabaseError else {
        return XCTFail("unexpected \(error)", line: line)
      }
      XCTAssertTrue(reason.contains(text), reason, line: line)
    }
  }

  func testDanglingIndexEntryIsRefused() throws {
    let data = try damage { storage in
      var tables = storage["tables"] as! [String: Any]
      tables["book"] = [Any]()
      storage["tables"] = tables
    }
    assertRefused(data, containing: "points at missing")
  }

  func testDuplicateIDIsRefused() throws {
    let data = try damage { storage in
      var tables = storage["tables"] as! [String: Any]
      let authors = tables["author"] as! [Any]
      tables["author"] = authors + authors
      storage["tables"] = tables
    }
    assertRefused(data, containing: "twice")
  }

  func testUnknownTableIsRefused() throws {
    let data = try damage { storage in
      var tables = storage["tables"] as! [String: Any]
      tables["magazine"] = [Any]()
      storage["tables"] = tables
    }
    assertRefused(data, containing: "not in the schema")
  }

  func testMalformedEntityIsRefused() throws {
    let data = try damage { storage in
      var tables = storage["tables"] as! [String: Any]
      tables["author"] = [["name": "no id"]]
      storage["tables"] = tables
    }
    XCTAssertThrowsError(try JSONDecoder().decode(Library.self, from: data)) {
      XCTAssertTrue($0 is DecodingError)
    }
  }
}
