import ExampleTerminal
import Verge
import VergeTesting

/// Collects what a test store reports instead of failing the test, so a test
/// can prove that a wrong expectation about an example's reducer is caught.
final class FailureCapture: Sendable {
  private let messages = Locked<[String]>([])

  /// The reporter to give the test store.
  var reporter: TestFailureReporter {
    TestFailureReporter { [messages] message, _, _ in
      messages.withLock { $0.append(message) }
    }
  }

  /// Every message reported so far, oldest first.
  var all: [String] { messages.withLock { $0 } }
}
