import Dispatch
import Foundation
import Verge
import VergeTestSupport
import XCTest

/// What the Concurrency article says of a command-line program with an
/// async `main` on Linux: once `main` first suspends, the main actor runs on
/// a thread that is not the main thread, so a main-actor handler is not
/// called at once by a commit there; it runs at the next suspension
/// (`await Task.yield()`).
///
/// The child process (this test binary, running only the `testChild…` case)
/// stands in for such a program: `dispatchMain()` hands the main queue, and
/// with it the main actor, to another thread, as an async `main` does.
final class MainActorOffTheMainThreadTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_MAIN_ACTOR_CHILD")

  func testAMainActorHandlerWaitsForTheNextSuspensionWhenTheMainActorIsOffTheMainThread() throws {
    // A child that hangs fails this test instead of the run.
    let outcome = try Self.child.run(
      test: "VergeTests.MainActorOffTheMainThreadTests/testChildOffTheMainThread", scenario: "1")
    let lines = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("probe ") }
    #if os(Linux)
      XCTAssertEqual(
        lines,
        [
          "probe main thread: false",
          "probe right after the commit: [0]",
          "probe after await Task.yield(): [0, 1]",
          "probe after await MainActor.run {}: [0, 1, 2]",
        ])
    #else
      // Darwin runs the main queue on the main thread after dispatchMain().
      XCTAssertEqual(lines.first, "probe main thread: true")
    #endif
    XCTAssertTrue(outcome.succeeded, outcome.stderr)
  }

  func testChildOffTheMainThread() throws {
    guard Self.child.isRunning("1") else {
      throw XCTSkip("runs only as the child process of the test above")
    }
    Task { @MainActor in
      final class Seen { var values: [Int] = [] }
      func say(_ text: String) { FileHandle.standardOutput.write(Data("probe \(text)\n".utf8)) }
      let seen = Seen()
      func render(_ count: Int) { seen.values.append(count) }
      say("main thread: \(Thread.isMainThread)")

      // The Concurrency article's snippet, as written there.
      let store = Store<Counter, Never>(initialState: Counter())
      let subscription = store.sinkState { changes in render(changes.count) }
      await Task.yield()   // the first delivery runs here
      store.commit { $0.count += 1 }
      say("right after the commit: \(seen.values)")
      await Task.yield()   // the change is rendered here
      say("after await Task.yield(): \(seen.values)")
      store.commit { $0.count = 2 }
      await MainActor.run {}
      say("after await MainActor.run {}: \(seen.values)")
      withExtendedLifetime(subscription) {}
      exit(0)
    }
    dispatchMain()
  }
}
