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

  /// A nesting of two stores' locks opposite to one already made.
  static func lockOrderCycle(outer: String, inner: String) -> Never {
    report(
      """
      \(inner) was used inside a commit closure of \(outer), and \(outer) was used \
      inside a commit closure of \(inner) before (directly or through other stores). \
      Threads nesting them in the two orders can deadlock, so every nesting of the \
      second order traps, whatever the timing. Nest commit closures of several stores \
      in one order, or make the inner call after the outer commit returns.
      """)
  }

  /// A dependency's default that needs itself to be computed: `chain`
  /// names the keys, each computed by a thread that waits for the next
  /// (or the one thread, which would wait for itself), the first again
  /// last.
  static func dependencyCycle(_ chain: [String]) -> Never {
    report(
      """
      the default value of the dependency \(chain[0]) needs itself to be computed: \
      \(chain.joined(separator: " needs ")). Computing it would never end, so it stops here. \
      Break the cycle: give one of these keys a default that does not read the others, \
      or override one where the store is made.
      """)
  }
}
