import Foundation

/// Runs code on a thread with a small stack, in a child process, so that a
/// stack overflow fails a test instead of ending the test run.
public enum SmallStack {
  /// The stack size Apple platforms give secondary threads and Swift
  /// concurrency's threads, in optimized builds (where the goal holds: at
  /// most a couple of state-sized values on the stack). An unoptimized
  /// build keeps every temporary of a function in a slot of its own, so
  /// there the budget is 1 MiB, the main thread's.
  #if DEBUG
  public static let size = 1024 * 1024
  #else
  public static let size = 512 * 1024
  #endif

  /// The environment variable that names the scenario a child runs.
  public static let variable = "VERGE_SMALL_STACK_CHILD"

  /// Runs `body` on a new thread whose stack is `size` bytes (or as many as
  /// `VERGE_SMALL_STACK_BYTES` says, to find what a path needs), and waits
  /// for it.
  ///
  /// Under the Thread Sanitizer the thread gets twice `size`: its
  /// instrumented, unoptimized frames are larger than a plain debug
  /// build's, and the budget these tests hold the library to is that of
  /// optimized and plain debug builds, which CI runs without it.
  public static func run(size: Int = SmallStack.size, _ body: @escaping @Sendable () -> Void) {
    let size =
      ProcessInfo.processInfo.environment["VERGE_SMALL_STACK_BYTES"].flatMap { Int($0) }
      ?? (isThreadSanitized ? 2 * size : size)
    // A Foundation thread rather than a bare pthread: XCTest and Foundation
    // keep per-thread records that a thread they did not make upsets.
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.stackSize = size
    thread.start()
    done.wait()
  }

  /// How a scenario gets what it works on (a store, a test store), as a
  /// closure to call on the small thread. Optimized builds make it there.
  /// In an unoptimized build the test's own code that makes a 64 KiB state
  /// needs 200 to 600 KiB of stack by itself (every temporary takes a slot
  /// of its own), so there, in the child for `scenario`, it is made now, on
  /// the test's thread, before the small one starts; every library path
  /// still runs on the small thread.
  public static func maker<Made>(for scenario: String, _ make: @escaping @Sendable () -> Made) -> @Sendable () -> Made {
    #if DEBUG
      guard isChild(running: scenario) else { return make }
      let made = Handover(make())
      return { made.value }
    #else
      return make
    #endif
  }

  /// Whether this process is the child that runs `scenario`.
  public static func isChild(running scenario: String) -> Bool {
    ProcessInfo.processInfo.environment[variable] == scenario
  }

  /// Runs the test `test` ("Module.Class/testMethod") of this test binary
  /// in a child process with `variable` set to `scenario`.
  ///
  /// - Returns: Whether the child exited normally with status 0, and its
  ///   standard error.
  public static func runChild(test: String, scenario: String) throws -> (succeeded: Bool, stderr: String) {
    let outcome = try ChildProcess(variable: variable).run(test: test, scenario: scenario)
    return (outcome.succeeded, outcome.stderr)
  }
}

/// A value made on the test's thread for the small thread.
///
/// `@unchecked Sendable`: the value is made before the small thread starts
/// and used only there, while the test's thread waits for it.
private final class Handover<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
