import Dispatch
import Foundation
import Synchronization

/// Runs one test of this test binary in a child process, for tests of what
/// ends a process (a trap, a stack overflow) or may hang it (a deadlock):
/// the child's end fails the parent test, not the test run.
///
/// The parent runs `Module.Class/testChildName` with `variable` set to the
/// scenario's name; that test first checks `isRunning(_:)` (skipping
/// itself otherwise), so it runs only as the child.
public struct ChildProcess: Sendable {
  /// What a child did.
  public struct Outcome: Sendable {
    /// The exit status, or the signal that ended it.
    public let status: Int32
    /// Whether it exited (rather than being ended by a signal).
    public let exited: Bool
    /// Whether it was still running after the time allowed, and so killed.
    public let hung: Bool
    /// Its standard error.
    public let stderr: String
    /// Its standard output (where XCTest reports a failed assertion).
    public let stdout: String

    /// Whether it exited normally with status 0 in time.
    public var succeeded: Bool { exited && status == 0 && !hung }
  }

  /// The environment variable that names the scenario the child runs.
  public let variable: String

  /// - Parameter variable: The environment variable naming the scenario.
  public init(variable: String) {
    self.variable = variable
  }

  /// Whether this process is the child running `scenario`.
  public func isRunning(_ scenario: String) -> Bool {
    ProcessInfo.processInfo.environment[variable] == scenario
  }

  /// Runs `test` ("Module.Class/testMethod") of this test binary in a child
  /// process with `variable` set to `scenario` (and `environment` added to
  /// this process's), killing it when it has not ended within `timeout`
  /// seconds.
  public func run(
    test: String, scenario: String, timeout: Int = 60, environment extra: [String: String] = [:]
  ) throws -> Outcome {
    try run(arguments: [test], scenario: scenario, timeout: timeout, environment: extra)
  }

  /// Runs the Swift Testing test (or suite) named `swiftTest` of this test
  /// binary in a child process, as `run(test:scenario:timeout:environment:)`
  /// runs an XCTest one.
  public func run(
    swiftTest: String, scenario: String, timeout: Int = 60, environment extra: [String: String] = [:]
  ) throws -> Outcome {
    try run(
      arguments: ["--testing-library", "swift-testing", "--filter", swiftTest], scenario: scenario,
      timeout: timeout, environment: extra)
  }

  private func run(
    arguments: [String], scenario: String, timeout: Int, environment extra: [String: String]
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment[variable] = scenario
    environment.merge(extra) { _, new in new }
    // A crash may be what is tested for: no crash backtracer. It would
    // inherit the pipes, and one that hangs (seen under the Thread
    // Sanitizer) keeps them open, so reading them to the end never returns.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let errorPipe = Pipe()
    let outputPipe = Pipe()
    process.standardError = errorPipe
    process.standardOutput = outputPipe
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    // Both pipes are read while the child runs, so that neither fills up.
    let reads = DispatchGroup()
    let errors = PipeContents()
    let output = PipeContents()
    for (pipe, contents) in [(errorPipe, errors), (outputPipe, output)] {
      DispatchQueue.global().async(group: reads) {
        contents.set(pipe.fileHandleForReading.readDataToEndOfFile())
      }
    }
    var hung = false
    if exited.wait(timeout: .now() + .seconds(timeout)) == .timedOut {
      hung = true
      kill(process.processIdentifier, SIGKILL)
      exited.wait()
    }
    reads.wait()
    return Outcome(
      status: process.terminationStatus, exited: process.terminationReason == .exit, hung: hung,
      stderr: errors.string, stdout: output.string)
  }
}

/// What one pipe held, filled from a reading thread.
private final class PipeContents: Sendable {
  private let data = Mutex(Data())

  func set(_ data: Data) { self.data.withLock { $0 = data } }

  var string: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
