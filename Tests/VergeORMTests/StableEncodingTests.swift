import Foundation
@testable import Verge
import VergeORM
import VergeTestSupport
import XCTest

/// State files are stable and speak the library's public language: equal
/// states give equal bytes in every process, a database encodes under its
/// declared names only, and files written by 0.1.0 still load.
final class StableEncodingTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_STABLE_ENCODING_FILE")

  /// A persisted state with a database and a dictionary, the two things
  /// whose order used to follow hashing.
  struct Shelf: Equatable, Codable, Sendable {
    var library = Library()
    var tags: [String: Int] = [:]
  }

  /// Books and authors with every kind of index, inserted in `order`.
  static func sample(reversed: Bool = false) throws -> Shelf {
    var shelf = Shelf()
    let authors = [("a1", "Le Guin"), ("a2", "Jemisin"), ("a3", "Tolkien")]
    var books: [(String, String, String, String)] = (0..<40).map { number in
      ("b\(number)", "Book \(number)", number.isMultiple(of: 3) ? "fantasy" : "sf", authors[number % 3].0)
    }
    if reversed { books.reverse() }
    try shelf.library.performBatchUpdates { (context) throws(DatabaseError) in
      for (id, name) in reversed ? authors.reversed() : authors {
        context.entities.author.insert(Author(rawID: id, name: name))
      }
      for (id, name, genre, author) in books {
        let book = context.entities.book.insert(Book(rawID: id, name: name, genre: genre, authorID: .init(author)))
        try context.indexes.bookByName.set(book.entityID, for: name)
      }
      // Ordered indexes keep their order whatever the insertion order.
      for (id, _, genre, author) in books.sorted(by: { $0.0 < $1.0 }) {
        try context.indexes.allBooks.append(.init(id))
        try context.indexes.booksByGenre.append(.init(id), to: genre)
        try context.indexes.booksByAuthor.append(.init(id), to: .init(author))
      }
    }
    for number in reversed ? Array((0..<30).reversed()) : Array(0..<30) {
      shelf.tags["tag \(number)"] = number
    }
    return shelf
  }

  /// Persists `shelf` to `file` as a store would, and returns the file.
  @discardableResult
  static func persist(_ shelf: Shelf, to file: URL) throws -> Data {
    let store = Store<Shelf, Never>(initialState: Shelf())
    let persistence = try store.persist(\.self, to: file)
    store.commit { $0.replace(with: shelf) }
    try persistence.close()
    return try Data(contentsOf: file)
  }

  func testTheSameStateWrittenByThreeProcessesGivesTheSameBytes() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-stable-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let here = try Self.persist(Self.sample(), to: directory.appendingPathComponent("here.state"))
    for name in ["first.state", "second.state"] {
      let file = directory.appendingPathComponent(name)
      let (status, output) = try runChild(file)
      XCTAssertEqual(status, 0, output)
      // Each process hashes with a seed of its own.
      XCTAssertEqual(String(decoding: try Data(contentsOf: file), as: UTF8.self),
                     String(decoding: here, as: UTF8.self), name)
    }
  }

  func testEqualStatesBuiltInAnotherOrderGiveTheSameBytes() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-stable-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let forward = try Self.sample()
    let backward = try Self.sample(reversed: true)
    XCTAssertEqual(forward, backward)
    XCTAssertEqual(
      try Self.persist(forward, to: directory.appendingPathComponent("forward.state")),
      try Self.persist(backward, to: directory.appendingPathComponent("backward.state")))
  }

  func testADatabaseEncodesUnderPublicNamesInAStableOrder() throws {
    var library = Library()
    try library.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a2", name: "Jemisin"))
      context.entities.author.insert(Author(rawID: "a1", name: "Le Guin"))
      let book = context.entities.book.insert(Book(rawID: "b1", name: "Earthsea", authorID: .init("a1")))
      try context.indexes.allBooks.append(book.entityID)
      try context.indexes.bookByName.set(book.entityID, for: "Earthsea")
      try context.indexes.booksByGenre.append(book.entityID, to: "fantasy")
      try context.indexes.booksByAuthor.append(book.entityID, to: .init("a1"))
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(library), as: UTF8.self)
    XCTAssertEqual(
      text,
      #"{"indexes":{"allBooks":["b1"],"bookByName":{"Earthsea":"b1"},"booksByAuthor":["a1",["b1"]],"#
        + #""booksByGenre":{"fantasy":["b1"]}},"tables":{"author":[{"name":"Le Guin","rawID":"a1"},"#
        + #"{"name":"Jemisin","rawID":"a2"}],"book":[{"authorID":"a1","genre":"novel","name":"Earthsea","rawID":"b1"}]}}"#)
    XCTAssertTrue(try JSONDecoder().decode(Library.self, from: Data(text.utf8)) == library)
  }

  // MARK: - Files written by 0.1.0

  /// A state file exactly as Verge 0.1.0 wrote it for `persist(\.library,
  /// ...)` of a `LibraryState` (its database nested under
  /// `_backingStorage`, entities and keys in hash order).
  static let fileWrittenBy010 = """
    verge-state 1
    schema-version: 1
    byte-count: 545
    checksum: fnv1a64:dda37219788f9f4e

    {"_backingStorage":{"tables":{"author":[{"name":"Jemisin","rawID":"a2"},{"name":"Le Guin","rawID":"a1"}],\
    "book":[{"authorID":"a2","name":"The Fifth Season","rawID":"b3","genre":"fantasy"},{"authorID":"a1",\
    "name":"Earthsea","rawID":"b1","genre":"fantasy"},{"authorID":"a1","name":"The Dispossessed","rawID":"b2",\
    "genre":"sf"}]},"indexes":{"bookByName":{"The Fifth Season":"b3","Earthsea":"b1","The Dispossessed":"b2"},\
    "allBooks":["b1","b2","b3"],"booksByGenre":{"sf":["b2"],"fantasy":["b1","b3"]},\
    "booksByAuthor":["a2",["b3"],"a1",["b1","b2"]]}}}
    """

  /// The database that file holds.
  private func libraryOf010() throws -> Library {
    var library = Library()
    try library.performBatchUpdates { (context) throws(DatabaseError) in
      context.entities.author.insert(Author(rawID: "a1", name: "Le Guin"))
      context.entities.author.insert(Author(rawID: "a2", name: "Jemisin"))
      let books = [
        ("b1", "Earthsea", "fantasy", "a1"), ("b2", "The Dispossessed", "sf", "a1"),
        ("b3", "The Fifth Season", "fantasy", "a2"),
      ]
      for (id, name, genre, author) in books {
        let book = context.entities.book.insert(Book(rawID: id, name: name, genre: genre, authorID: .init(author)))
        try context.indexes.allBooks.append(book.entityID)
        try context.indexes.bookByName.set(book.entityID, for: name)
        try context.indexes.booksByGenre.append(book.entityID, to: genre)
        try context.indexes.booksByAuthor.append(book.entityID, to: .init(author))
      }
    }
    return library
  }

  func testAFileWrittenBy010IsRestoredAndWrittenBackInTheCurrentForm() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-stable-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("library.state")
    try Data(Self.fileWrittenBy010.utf8).write(to: file)
    let expected = try libraryOf010()

    let store = Store<LibraryState, Never>(initialState: LibraryState())
    let persistence = try store.persist(\.library, to: file)
    XCTAssertEqual(persistence.restoreOutcome, .restored(version: 1))
    XCTAssertTrue(store.state.library == expected)
    XCTAssertEqual(store.state.library.invariantViolations(), [])
    XCTAssertEqual(store.state.library.indexes.booksByAuthor.ids(in: .init("a1")), [.init("b1"), .init("b2")])

    // The next write is in the current form.
    store.commit { state in
      state.library.performBatchUpdates { context in
        context.entities.author.insert(Author(rawID: "a3", name: "Tolkien"))
      }
    }
    try persistence.close()
    let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
    XCTAssertFalse(written.contains("_backingStorage"), written)
    XCTAssertTrue(written.contains(#"{"indexes":{"allBooks":["b1","b2","b3"]"#), written)
    let next = Store<LibraryState, Never>(initialState: LibraryState())
    try next.persist(\.library, to: file).close()
    XCTAssertEqual(next.state.library.entities.author.count, 3)
  }

  // MARK: - The child process

  private func runChild(_ file: URL) throws -> (Int32, String) {
    let outcome = try Self.child.run(
      test: "VergeORMTests.StableEncodingTests/testChildPersistsTheSample", scenario: file.path)
    return (outcome.succeeded ? 0 : max(outcome.status, 1), outcome.stdout + outcome.stderr)
  }

  func testChildPersistsTheSample() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.child.variable] else {
      throw XCTSkip("runs only as the child process of the stable-bytes test")
    }
    try Self.persist(Self.sample(), to: URL(fileURLWithPath: path))
  }
}
