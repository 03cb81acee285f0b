/// Reports programming errors that cannot be recovered from safely.
enum Misuse {
  static func report(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Verge misuse: \(message)", file: file, line: line)
  }
}
