import Synchronization
import VergeTesting
import XCTest

/// The counter of `TestFailureReporter`'s documentation.
struct Counter: ActionReducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    return .none
  }
}

/// Where the default reporter sends a failure inside XCTest, and the
/// documented way to capture failures.
final class TestFailureReporterTests: XCTestCase {
  /// What `XCTFail` recorded while `capturing` was set, instead of failing.
  private let captured = FailureLog()
  private let capturing = Mutex(false)

  override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
    guard capturing.withLock({ $0 }) else {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      return
    }
    captured.reporter.report(description, file: #filePath, line: UInt(lineNumber))
  }

  func testTheDefaultReporterFailsThroughXCTestAtTheAssertion() async {
    let store = TestStore(initialState: Counter.State(), reducer: Counter())
    capturing.withLock { $0 = true }
    let line: UInt = #line + 1
    await store.send(.increment) { $0.count = 2 }
    capturing.withLock { $0 = false }
    await store.finish()
    XCTAssertEqual(captured.all.map(\.line), [line])
    XCTAssertEqual(
      captured.all.first?.message.hasSuffix(
        """
        send(.increment): the state is not what was expected:
          count
            expected: 2
            actual:   1
        """), true, captured.messages.description)
  }

  /// `TestFailureReporter`'s documentation example, as written there.
  func testTheDocumentedCaptureCompilesAndCaptures() async {
    final class Failures: Sendable {
      let messages = Mutex<[String]>([])
    }

    let failures = Failures()
    let reporter = TestFailureReporter { message, _, _ in
      failures.messages.withLock { $0.append(message) }
    }
    let store = TestStore(initialState: .init(), reducer: Counter(), reporter: reporter)
    await store.send(.increment) { $0.count = 2 }
    // failures.messages now holds "send(.increment): the state is not what was expected: …"

    XCTAssertEqual(
      failures.messages.withLock { $0 },
      [
        """
        send(.increment): the state is not what was expected:
          count
            expected: 2
            actual:   1
        """
      ])
  }
}
