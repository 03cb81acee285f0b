import ExampleTerminal
import Foundation
import XCTest

/// How the interactive sessions read and write: lines cut from raw reads
/// whatever the chunk sizes, and output written straight to the descriptor.
final class TerminalTests: XCTestCase {
  func testSplitsLinesAcrossChunksAndDropsCarriageReturns() {
    var splitter = LineSplitter()
    let text = Array("+\r\nundo\nnaïve\npartial".utf8)
    var lines: [String] = []
    // One byte at a time, so "ï" arrives in two reads.
    for byte in text { lines += splitter.append([byte]) }
    XCTAssertEqual(lines, ["+", "undo", "naïve"])
    XCTAssertEqual(splitter.finish(), "partial")
    XCTAssertNil(splitter.finish())
  }

  func testAnEmptyLineIsALine() {
    var splitter = LineSplitter()
    XCTAssertEqual(splitter.append(Array("\n\nq\n".utf8)), ["", "", "q"])
    XCTAssertNil(splitter.finish())
  }

  func testReadsLinesFromADescriptorUntilItsEnd() async throws {
    let pipe = Pipe()
    let lines = Terminal.lines(from: pipe.fileHandleForReading.fileDescriptor)
    Terminal.write("+\n+\nquit", to: pipe.fileHandleForWriting.fileDescriptor)
    try pipe.fileHandleForWriting.close()
    var read: [String] = []
    for await line in lines { read.append(line) }
    XCTAssertEqual(read, ["+", "+", "quit"])
  }

  func testWritesTheWholeTextToTheDescriptor() throws {
    let pipe = Pipe()
    // Less than a pipe holds, so no reader is needed while writing.
    let screen = String(repeating: "> free   count: 5\n", count: 1_000)
    Terminal.write(screen, to: pipe.fileHandleForWriting.fileDescriptor)
    try pipe.fileHandleForWriting.close()
    let data = try XCTUnwrap(try pipe.fileHandleForReading.readToEnd())
    XCTAssertEqual(String(decoding: data, as: UTF8.self), screen)
  }
}
