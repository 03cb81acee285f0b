import Foundation
@testable import Verge
import XCTest

/// `persist` creates the state file's directory only when asked to: a
/// missing directory is otherwise refused with an error that names it, and
/// nothing is created.
final class PersistenceDirectoryTests: XCTestCase {
  func testAMissingDirectoryIsRefusedAndNothingIsCreated() throws {
    let directory = try PersistenceDirectoryFixture()
    let missing = directory.url.appendingPathComponent("a/b")
    let store = Store<Notebook, Never>(initialState: Notebook(count: 3))
    XCTAssertThrowsError(try store.persist(\.self, to: missing.appendingPathComponent("saved.state"))) { error in
      XCTAssertEqual(error as? PersistenceError, .missingDirectory(path: missing.path))
      XCTAssertEqual(
        "\(error)",
        "the directory \(missing.path) does not exist: create it, or pass createDirectories: true to persist")
    }
    XCTAssertEqual(directory.names, [])
    XCTAssertEqual(store.state.count, 3)
    // Only the last directory missing: the same.
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("a"), withIntermediateDirectories: false)
    XCTAssertThrowsError(try store.persist(\.self, to: missing.appendingPathComponent("saved.state"))) { error in
      XCTAssertEqual(error as? PersistenceError, .missingDirectory(path: missing.path))
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path + "/a"), [])
  }

  func testARelativePathInAMissingDirectoryNamesItAsGiven() throws {
    let store = Store<Notebook, Never>(initialState: Notebook())
    let name = "verge-missing-\(UUID().uuidString)"
    XCTAssertThrowsError(try store.persist(\.self, to: URL(fileURLWithPath: "\(name)/saved.state"))) { error in
      guard case .missingDirectory(let path) = error as? PersistenceError else { return XCTFail("\(error)") }
      XCTAssertTrue(path.hasSuffix("/\(name)"), path)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: name))
  }

  func testDirectoriesAreCreatedWhenAsked() throws {
    let directory = try PersistenceDirectoryFixture()
    let file = directory.url.appendingPathComponent("a/b/saved.state")
    let store = Store<Notebook, Never>(initialState: Notebook())
    let persistence = try store.persist(\.self, to: file, createDirectories: true, writeInterval: .seconds(3600))
    store.commit { $0.count = 7 }
    try persistence.close()
    XCTAssertEqual(try readStateFile(file, as: Notebook.self).value.count, 7)
    var isDirectory: ObjCBool = false
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.url.path + "/a/b", isDirectory: &isDirectory))
    XCTAssertTrue(isDirectory.boolValue)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path + "/a/b").sorted(),
      ["saved.state", "saved.state.lock"])
    // An existing directory is used as it is, asked or not.
    let next = Store<Notebook, Never>(initialState: Notebook())
    try next.persist(\.self, to: file, createDirectories: true).close()
    try next.persist(\.self, to: file).close()
    XCTAssertEqual(next.state.count, 7)
  }

  func testAFileWhereADirectoryShouldBeIsRefusedEitherWay() throws {
    let directory = try PersistenceDirectoryFixture()
    try Data("not a directory".utf8).write(to: directory.file("plain"))
    let store = Store<Notebook, Never>(initialState: Notebook(count: 2))
    for createDirectories in [false, true] {
      let url = directory.file("plain").appendingPathComponent("saved.state")
      XCTAssertThrowsError(try store.persist(\.self, to: url, createDirectories: createDirectories)) { error in
        guard case .io(_, let path, let code) = error as? PersistenceError else { return XCTFail("\(error)") }
        XCTAssertEqual(path, directory.file("plain").path)
        XCTAssertEqual(code, ENOTDIR)
      }
    }
    XCTAssertEqual(directory.names, ["plain"])
    XCTAssertEqual(try Data(contentsOf: directory.file("plain")), Data("not a directory".utf8))
    XCTAssertEqual(store.state.count, 2)
  }
}
