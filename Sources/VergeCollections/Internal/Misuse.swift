/// Reports programming errors that cannot be recovered from safely, with
/// the same prefix as the store's own reports.
@usableFromInline
enum Misuse {
  @usableFromInline
  static func report(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Verge misuse: \(message)", file: file, line: line)
  }
}
