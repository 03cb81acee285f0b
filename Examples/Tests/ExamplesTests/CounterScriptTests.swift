import XCTest
@testable import counter

/// The counter's command line: parsing, refusals and scripted output.
final class CounterScriptTests: XCTestCase {
  func testParsesEverySpelling() throws {
    XCTAssertEqual(
      try Command.parse(script: "+ inc - dec later l cancel c wait w undo u redo r s style free method action ? q"),
      [
        .increment, .increment, .decrement, .decrement, .incrementLater, .incrementLater, .cancel, .cancel,
        .wait, .wait, .undo, .undo, .redo, .redo, .nextStyle, .nextStyle, .style(.free), .style(.method),
        .style(.action), .help, .quit,
      ])
    XCTAssertEqual(try Command.parse(script: "UNDO,+"), [.undo, .increment])
  }

  func testRefusesUnknownWordsAndEmptyScripts() {
    XCTAssertThrowsError(try Command.parse(script: "+ + jump -")) { error in
      XCTAssertEqual(error as? ScriptError, .unknownWord("jump", position: 3))
      XCTAssertTrue("\(error)".contains("unknown command 'jump'"))
    }
    XCTAssertThrowsError(try Command.parse(script: "   ")) { error in
      XCTAssertEqual(error as? ScriptError, .empty)
    }
  }

  func testParsesOptionsAndRefusesBadOnes() throws {
    let options = try Options(["--style", "action", "--delay-ms", "5", "--script", "+"])
    XCTAssertEqual(options.style, .action)
    XCTAssertEqual(options.delayMilliseconds, 5)
    XCTAssertEqual(options.script, "+")
    XCTAssertThrowsError(try Options(["--style", "fancy"])) { error in
      XCTAssertEqual(error as? OptionsError, .badValue("--style", "fancy", expected: "free, method or action"))
    }
    XCTAssertThrowsError(try Options(["--delay-ms", "-1"]))
    XCTAssertThrowsError(try Options(["--script"])) { error in
      XCTAssertEqual(error as? OptionsError, .missingValue("--script"))
    }
    XCTAssertThrowsError(try Options(["extra"])) { error in
      XCTAssertEqual(error as? OptionsError, .unknown("extra"))
    }
  }

  func testOptionsTakeTheNextArgumentWhateverItLooksLike() throws {
    XCTAssertEqual(try Options(["-s", "- - undo"]).script, "- - undo")
    XCTAssertEqual(try Options(["--script", "--style"]).script, "--style")
    XCTAssertEqual(try Options(["--style=method"]).style, .method)
    XCTAssertTrue(try Options(["--help"]).showsHelp)
    XCTAssertThrowsError(try Options(["-s", "+", "--scrip", "+"])) { error in
      XCTAssertEqual("\(error)", "unknown option '--scrip'")
    }
    XCTAssertThrowsError(try Options(["--style", "free", "-s"])) { error in
      XCTAssertEqual("\(error)", "-s needs a value")
    }
  }

  @MainActor
  func testReadmeScriptPrintsOneStatePerLine() async throws {
    let session = CounterSession(delay: {})
    let lines = await Shell.scriptLines(try Command.parse(script: "+ + - undo"), in: session)
    XCTAssertEqual(
      lines,
      [
        "+       free    count: 1",
        "+       free    count: 2",
        "-       free    count: 1",
        "undo    free    count: 2",
      ])
  }

  @MainActor
  func testScriptedDelayedIncrementsAndStyleSwitches() async throws {
    let gate = DelayGate()
    let session = CounterSession(style: .method, delay: gate.delay)
    let started = await Shell.scriptLines(try Command.parse(script: "later"), in: session)
    XCTAssertEqual(started, ["later   method  count: 0  (+1 pending)"])
    // The script's end cancelled the waiting increment; start another, let it land.
    gate.open()
    let script = "later wait action + + style undo redo redo q +"
    let lines = await Shell.scriptLines(try Command.parse(script: script), in: session)
    XCTAssertEqual(
      Array(lines.dropFirst()),
      [
        "wait    method  count: 1",
        "action  action  count: 0",
        "+       action  count: 1",
        "+       action  count: 2",
        "style   free    count: 0",
        "undo    free    count: 0  [nothing to undo]",
        "redo    free    count: 0  [nothing to redo]",
        "redo    free    count: 0  [nothing to redo]",
      ])
    XCTAssertTrue(lines.allSatisfy { $0.count <= 80 })
  }

  func testHelpFitsEightyColumns() {
    for line in Options.usage.split(separator: "\n") {
      XCTAssertLessThanOrEqual(line.count, 80, "\(line)")
    }
  }
}
