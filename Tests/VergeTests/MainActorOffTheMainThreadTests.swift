import Dispatch
import Foundation
import Verge
import VergeTestSupport
import XCTest

/// What the Concurrency article says of a program whose main actor runs off
/// the main thread (on Linux, once `dispatchMain()` has run, as it has in a
/// program with an async `main` and in every Swift Testing run): a
/// main-actor handler still runs at once when main-actor code commits, as
/// it does on the main thread.
///
/// The child process (this test binary, running only the `testChild…` case)
/// stands in for such a program: `dispatchMain()` hands the main queue, and
/// with it the main actor, to another thread, as an async `main` does.
final class MainActorOffTheMainThreadTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_MAIN_ACTOR_CHILD")

  func testAMainActorHandlerRunsAtOnceWhenTheMainActorIsOffTheMainThread() throws {
    // A child that hangs fails this test instead of the run.
    let outcome = try Self.child.run(
      test: "VergeTests.MainActorOffTheMainThreadTests/testChildOffTheMainThread", scenario: "1")
    let lines = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("probe ") }
    #if os(Linux)
      XCTAssertEqual(
        lines,
        [
          "probe main thread: false",
          "probe right after subscribing: [0]",
          "probe right after the commit: [0, 1]",
          "probe right after a commit from another thread: [0, 1]",
          "probe after await Task.yield(): [0, 1, 2]",
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

      let store = Store<Counter, Never>(initialState: Counter())
      let subscription = store.sinkState { changes in render(changes.count) }
      say("right after subscribing: \(seen.values)")
      store.commit { $0.count += 1 }
      say("right after the commit: \(seen.values)")
      // Off the main queue, the handler waits for the main actor, which
      // this code holds until its next suspension.
      let committed = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        store.commit { $0.count = 2 }
        committed.signal()
      }
      committed.wait()
      say("right after a commit from another thread: \(seen.values)")
      await Task.yield()
      say("after await Task.yield(): \(seen.values)")
      withExtendedLifetime(subscription) {}
      exit(0)
    }
    dispatchMain()
  }
}
