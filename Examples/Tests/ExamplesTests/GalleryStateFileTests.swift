import Foundation
import Verge
import XCTest
@testable import comments

/// `comments --state-file PATH`: a run saves the VergeORM database, the next
/// one starts from it (and so does its simulated server), and a file that
/// cannot be used is moved aside without stopping the program.
@MainActor
final class GalleryStateFileTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  override func tearDown() async throws {
    directory.remove()
  }

  /// Runs `comments` against a server that answers at once and never fails.
  private func run(_ path: String, _ script: String) async -> (status: Int32, output: CapturedOutput) {
    let captured = CapturedOutput()
    let arguments = ["--failure-percent", "0", "--latency-ms", "0", "--state-file", path, "--script", script]
    let status = await CommentsShell.run(arguments, output: captured.output)
    return (status, captured)
  }

  func testAScriptedRunSavesTheGalleryAndTheNextRunRestoresIt() async throws {
    let path = directory.path("gallery.state")
    let first = await run(path, "refresh; open 1; post Saved for later")
    XCTAssertEqual(first.status, 0)
    XCTAssertEqual(first.output.errors, [])

    let second = await run(path, "list; open 1")
    XCTAssertEqual(second.status, 0)
    XCTAssertEqual(second.output.errors, [])
    XCTAssertEqual(
      second.output.lines,
      [
        "> list",
        "  1. Harbour at dawn by Ana - 3 comments",
        "  2. Rain on the tram by Bo - 1 comment",
        "  3. Lanterns by Chen - 0 comments",
        "> open 1",
        "  Harbour at dawn by Ana - 3 comments",
        "    1. Bo: That light!",
        "    2. Chen: Which harbour is it?",
        "    3. you: Saved for later",
      ])
  }

  func testTheServerStartsFromTheRestoredGallery() async throws {
    let path = directory.path("gallery.state")
    _ = await run(path, "refresh; open 1; post First")
    let second = await run(path, "open 1; post Second; delete 1; refresh; open 1")
    XCTAssertEqual(second.output.errors, [])
    XCTAssertEqual(
      second.output.lines,
      [
        "> open 1",
        "  Harbour at dawn by Ana - 3 comments",
        "    1. Bo: That light!",
        "    2. Chen: Which harbour is it?",
        "    3. you: First",
        "> post Second",
        "  comment c102 posted on p1",
        "  Harbour at dawn by Ana - 4 comments",
        "    1. Bo: That light!",
        "    2. Chen: Which harbour is it?",
        "    3. you: First",
        "    4. you: Second",
        "> delete 1",
        "  deleted \"That light!\"",
        "  Harbour at dawn by Ana - 3 comments",
        "    1. Chen: Which harbour is it?",
        "    2. you: First",
        "    3. you: Second",
        "> refresh",
        "  3 photos, 4 comments",
        "> open 1",
        "  Harbour at dawn by Ana - 3 comments",
        "    1. Chen: Which harbour is it?",
        "    2. you: First",
        "    3. you: Second",
      ])
  }

  func testADamagedFileIsMovedAsideAndTheGalleryStartsEmpty() async throws {
    let path = directory.path("gallery.state")
    let damaged = Data("verge-state 1\nschema-version: 1\nbyte-count: 900\n\n{\"cut\":".utf8)
    try damaged.write(to: URL(fileURLWithPath: path))

    let result = await run(path, "list; refresh")
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.output.lines, ["> list", "  no photos; try 'refresh'", "> refresh", "  3 photos, 3 comments"])
    XCTAssertEqual(result.output.errors.count, 1)
    let message = try XCTUnwrap(result.output.errors.first)
    XCTAssertTrue(message.hasPrefix("comments: the state file \(path) was refused (the state file is damaged"), message)

    let aside = try XCTUnwrap(try directory.names().first { $0.hasPrefix("gallery.state.refused-") })
    XCTAssertTrue(message.contains("moved to \(directory.path(aside))"), message)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory.path(aside))), damaged)

    // The run saved its own gallery in a new file.
    let next = await run(path, "list")
    XCTAssertEqual(next.output.errors, [])
    XCTAssertEqual(next.output.lines.count, 4)
  }

  func testAFileThatDoesNotDecodeAsTheGalleryIsMovedAside() async throws {
    struct Other: Equatable, Codable, Sendable { var note = "not a gallery" }
    let path = directory.path("gallery.state")
    let other = Store<Other, Never>(initialState: Other())
    let persistence = try other.persist(\.self, to: URL(fileURLWithPath: path), version: GalleryStateFile.version)
    other.commit { $0.note = "still not a gallery" }
    try persistence.close()

    let result = await run(path, "list")
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.output.lines, ["> list", "  no photos; try 'refresh'"])
    let message = try XCTUnwrap(result.output.errors.first)
    XCTAssertTrue(message.contains("the state file does not decode"), message)
    XCTAssertTrue(message.contains("moved to \(path).refused-"), message)
  }

  func testADirectoryAtThePathStopsTheRunNamingThePathAsTyped() async throws {
    let folder = directory.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    for typed in [folder, folder + "/"] {
      let result = await run(typed, "list")
      XCTAssertEqual(result.status, 1, typed)
      XCTAssertEqual(result.output.lines, [], typed)
      XCTAssertEqual(result.output.errors, ["comments: the state file \(typed) is a directory, not a file"])
    }
    XCTAssertEqual(try directory.names(), ["folder"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
  }

  func testAMissingDirectoryIsNotCreatedAndStopsTheRun() async throws {
    let typed = directory.path("missing/inner/gallery.state")
    let result = await run(typed, "list")
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.output.lines, [])
    XCTAssertEqual(
      result.output.errors,
      ["comments: the state file \(typed) cannot be made: its directory \(directory.path("missing/inner")) "
        + "does not exist (comments does not create directories)"])
    XCTAssertEqual(try directory.names(), [])
  }

  func testTheOptionNeedsAPath() async throws {
    XCTAssertThrowsError(try CommentsOptions(["--state-file", ""])) { error in
      XCTAssertEqual(
        error as? CommentsOptionsError, .badValue("--state-file", "", expected: "the path of a file"))
    }
    XCTAssertEqual(try CommentsOptions(["--state-file", "g.state"]).stateFile, "g.state")
    let captured = CapturedOutput()
    let status = await CommentsShell.run(["--script", "list", "--state-file"], output: captured.output)
    XCTAssertEqual(status, 2)
    XCTAssertEqual(captured.errors, ["comments: --state-file needs a value\nTry 'comments --help'."])
  }
}
