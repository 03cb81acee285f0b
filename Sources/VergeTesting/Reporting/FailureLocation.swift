/// Where a test wrote the step that failed, in every form the test
/// frameworks want: Swift Testing's `SourceLocation` takes all four, XCTest
/// the path and the line.
struct FailureLocation: Sendable {
  /// `#fileID`: `MyTests/GalleryTests.swift`.
  let fileID: StaticString
  /// `#filePath`.
  let filePath: StaticString
  /// `#line`.
  let line: UInt
  /// `#column`.
  let column: UInt

  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `GalleryTests.swift:12`: the file's name and the line.
  var short: String { Describe.location(filePath, line) }
}
