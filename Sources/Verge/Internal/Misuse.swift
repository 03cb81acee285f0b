/// Reports programming errors that cannot be recovered from safely.
@usableFromInline
enum Misuse {
  @usableFromInline
  static func report(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Verge misuse: \(message)", file: file, line: line)
  }

  /// The store was used from inside its own commit; locking again would deadlock.
  @usableFromInline
  static func reentrantUse(_ operation: StaticString) -> Never {
    report(
      """
      '\(operation)' was called on a store from inside one of that store's own commit \
      closures or commit middlewares. The store is locked there, so this would deadlock. \
      Move the call after the commit returns, or into a subscriber.
      """)
  }
}
