import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

// The "Errors in effects" section of the Getting Started article, as
// written there.
struct Loader: ActionReducer {
  struct State: Equatable { var text = ""; var failure: String? }
  enum Action: Sendable { case load, loaded(String), failed(String) }
  let fetch: @Sendable () async throws -> String

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .load:
      return .run { send in
        send(.loaded(try await fetch()))
      } catch: { error, send in
        send(.failed("\(error)"))
      }
    case .loaded(let text):
      state.text = text
      return .none
    case .failed(let message):
      state.failure = message
      return .none
    }
  }
}

/// A feature whose effects throw, or wait to be cancelled.
private struct Failing: ActionReducer {
  struct State: Equatable { var caught: [String] = [] }
  enum Action: Equatable, Sendable { case fail, waitUncaught, waitCaught, stop, caught(String) }
  static let failLine: UInt = #line + 7
  let started: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .fail:
      // `failLine` points at the next line.
      return .run { _ in throw TestFailure(message: "boom") }
    case .waitUncaught:
      return .run { [started] _ in
        started.open()
        try await waitUntilCancelled()
      }
      .cancellable(id: "wait")
    case .waitCaught:
      return .run { [started] _ in
        started.open()
        try await waitUntilCancelled()
      } catch: { error, send in
        send(.caught("\(error)"))
      }
      .cancellable(id: "wait")
    case .stop:
      return .cancel(id: "wait")
    case .caught(let message):
      state.caught.append(message)
      return .none
    }
  }
}

/// Suspends until the task is cancelled, then throws `CancellationError`.
private func waitUntilCancelled() async throws {
  let never = AsyncStream<Int> { _ in }
  for await _ in never {}
  try Task.checkCancellation()
}

final class EffectErrorTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_EFFECT_ERROR_CHILD")

  func testTheArticlesLoaderTurnsAnErrorIntoAnAction() async {
    let failures = Collected<String>()
    let failing = ActionStore(
      initialState: Loader.State(), reducer: Loader(fetch: { throw TestFailure(message: "offline") }),
      onEffectError: { failures.append("\($0)") })
    await failing.send(.load).finish()
    XCTAssertEqual(failing.state.failure, "TestFailure(message: \"offline\")")
    XCTAssertEqual(failing.state.text, "")

    let working = ActionStore(
      initialState: Loader.State(), reducer: Loader(fetch: { "hello" }),
      onEffectError: { failures.append("\($0)") })
    await working.send(.load).finish()
    XCTAssertEqual(working.state.text, "hello")
    XCTAssertNil(working.state.failure)
    XCTAssertEqual(failures.all, [], "a caught error is not reported")
  }

  func testTheArticlesStoreLevelHandlerCompiles() async {
    struct LoaderAPI { let fetch: @Sendable () async throws -> String }
    let api = LoaderAPI(fetch: { throw TestFailure(message: "down") })
    let lines = Collected<String>()
    let log = { @Sendable (line: String) in lines.append(line) }
    let store = ActionStore(
      initialState: Loader.State(), reducer: Loader(fetch: api.fetch),
      onEffectError: { failure in log("\(failure)") })
    await store.send(.load).finish()
    XCTAssertEqual(lines.all, [], "Loader catches its errors")
    XCTAssertEqual(store.state.failure, "TestFailure(message: \"down\")")
  }

  func testAnUncaughtErrorGoesToTheStoresHandlerWithItsActionAndPlace() async throws {
    let failures = Collected<EffectFailure<Failing.Action>>()
    let store = ActionStore(
      initialState: Failing.State(), reducer: Failing(started: Gate()),
      onEffectError: { failures.append($0) })
    await store.send(.fail).finish()
    let failure = try XCTUnwrap(failures.all.first)
    XCTAssertEqual(failures.all.count, 1)
    XCTAssertEqual(failure.action, .fail)
    XCTAssertEqual(failure.error as? TestFailure, TestFailure(message: "boom"))
    XCTAssertEqual("\(failure.fileID)", "VergeNeueTests/EffectErrorTests.swift")
    XCTAssertEqual(failure.line, Failing.failLine)
    XCTAssertEqual(
      failure.description,
      "An effect made at VergeNeueTests/EffectErrorTests.swift:\(Failing.failLine) for action fail "
        + "failed with an error: TestFailure(message: \"boom\")")
  }

  func testAnEmbeddedChildsErrorNamesTheParentsAction() async throws {
    struct Parent: ActionReducer {
      struct State: Equatable { var child = Failing.State() }
      enum Action: Equatable, Sendable { case child(Failing.Action) }
      func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
        switch action {
        case .child(let action): Failing(started: Gate()).reduce(into: &state.child, action: action).map(Action.child)
        }
      }
    }
    let failures = Collected<EffectFailure<Parent.Action>>()
    let store = ActionStore(initialState: Parent.State(), reducer: Parent(), onEffectError: { failures.append($0) })
    await store.send(.child(.fail)).finish()
    XCTAssertEqual(failures.all.map(\.action), [.child(.fail)])
    XCTAssertEqual(failures.all.map(\.line), [Failing.failLine])
  }

  func testCancellationIsNeitherCaughtNorReported() async {
    for action in [Failing.Action.waitUncaught, .waitCaught] {
      let started = Gate()
      let failures = Collected<String>()
      let store = ActionStore(
        initialState: Failing.State(), reducer: Failing(started: started),
        onEffectError: { failures.append("\($0)") })
      let running = store.send(action)
      await started.wait()
      await store.send(.stop).finish()
      await running.finish()
      XCTAssertEqual(store.state.caught, [], "\(action)")
      XCTAssertEqual(failures.all, [], "\(action)")
    }
  }

  func testTheDefaultHandlerWritesTheFailureToStandardError() throws {
    let outcome = try Self.child.run(
      test: "VergeNeueTests.EffectErrorTests/testChildFailsWithTheDefaultHandler", scenario: "1")
    let stderr = outcome.stderr
    XCTAssertTrue(outcome.succeeded, stderr)
    #if DEBUG
      // A debug build: the whole failure and the hint.
      XCTAssertTrue(
        stderr.contains(
          "VergeNeue: An effect made at VergeNeueTests/EffectErrorTests.swift:\(Failing.failLine) for action fail "
            + "failed with an error: TestFailure(message: \"boom\"). Catch it with Effect.run(operation:catch:), "
            + "or handle it in the store's onEffectError.\n"), stderr)
    #else
      // A release build leaves the action (it may hold user data) out.
      XCTAssertTrue(
        stderr.contains(
          "VergeNeue: an effect made at VergeNeueTests/EffectErrorTests.swift:\(Failing.failLine) "
            + "failed with an error: TestFailure(message: \"boom\")\n"), stderr)
    #endif
    XCTAssertFalse(outcome.stdout.contains("VergeNeue: An effect"), "not on standard output")
  }

  func testChildFailsWithTheDefaultHandler() async throws {
    guard Self.child.isRunning("1") else {
      throw XCTSkip("runs only as the child process of testTheDefaultHandlerWritesTheFailureToStandardError")
    }
    let store = ActionStore(initialState: Failing.State(), reducer: Failing(started: Gate()))
    await store.send(.fail).finish()
  }
}
