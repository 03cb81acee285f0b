import Foundation
import Synchronization
import VergeTesting
import VergeTestSupport
import XCTest

private struct WideItem: Equatable, Sendable, Identifiable {
  let id: Int
  var count = 0
}

private struct WideItemFeature: ActionReducer {
  typealias State = WideItem
  enum Action: Sendable, Equatable { case increment }

  func reduce(into state: inout WideItem, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    return .none
  }
}

/// The 64 KiB part, as a feature of its own (embedded at `\.large`).
private struct LargeFeature: ActionReducer {
  typealias State = LargeState
  enum Action: Sendable, Equatable { case bump }

  func reduce(into state: inout LargeState, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    state.last += 1
    return .none
  }
}

/// A root state with a 64 KiB part inline beside identified rows.
private struct WideFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var large = LargeState()
    var items: IdentifiedArrayOf<WideItem> = [WideItem(id: 1), WideItem(id: 2)]
  }
  enum Action: Sendable, Equatable {
    case item(id: Int, action: WideItemFeature.Action)
    case large(LargeFeature.Action)
    case bump
    /// Changes nothing; its effect sends `bump`.
    case bumpLater
  }

  static let itemCase = ActionCase<Action, (id: Int, action: WideItemFeature.Action)>({ .item(id: $0.id, action: $0.action) }) {
    if case .item(let id, let action) = $0 { (id, action) } else { nil }
  }

  static let largeCase = ActionCase<Action, LargeFeature.Action>({ .large($0) }) {
    if case .large(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .item, .large: break
    case .bump:
      state.large.count += 1
      state.large.last += 1
    case .bumpLater:
      return .send(.bump)
    }
    return .none
  }
}

/// The same 64 KiB part, changed by a method reducer's mutations.
private final class WideMethods: ReducerType {
  typealias TargetState = WideFeature.State

  func bump() -> Mutation {
    .init {
      $0.large.count += 1
      $0.large.last += 1
    }
  }

  func bumpTwice() -> Action<Void> {
    .init { context in
      context.commit { $0.bump() }
      context.commit { $0.bump() }
    }
  }
}

// The stores are made in frames of their own, so that the async test
// closure keeps no slot for the initial state (an unoptimized build keeps
// one per temporary).

@inline(never)
private func wideTestStore(reporter: TestFailureReporter) -> TestStore<Composed<WideFeature>> {
  TestStore(
    initialState: WideFeature.State(),
    reducer: WideFeature().forEach(\.items, action: WideFeature.itemCase, element: WideItemFeature()),
    reporter: reporter)
}

@inline(never)
private func wideMethodsTestStore(reporter: TestFailureReporter) -> TestStore<WideMethods> {
  TestStore(initialState: WideFeature.State(), reducer: WideMethods(), reporter: reporter)
}

/// What the middlewares of `wideMiddlewareTestStore` saw, in order: each
/// one's name, with the large part's count before its step and after the
/// rest of the pipeline.
private final class MiddlewareLog: Sendable {
  private let entries = Mutex<[String]>([])

  var seen: [String] { entries.withLock { $0 } }

  func record(_ entry: String) {
    entries.withLock { $0.append(entry) }
  }
}

/// Three middlewares that read the state before, pass the message on and
/// read the state after.
private func wideMiddlewares(log: MiddlewareLog) -> [Middleware<WideFeature.Action, WideFeature.State>] {
  ["a", "b", "c"].map { name in
    Middleware(name: name) { step in
      let before = step.stateBefore.large.count
      let after = step.next().map { $0.large.count }
      log.record("\(name) \(before)->\(after.map(String.init) ?? "nil")")
    }
  }
}

@inline(never)
private func wideMiddlewareTestStore(reporter: TestFailureReporter, log: MiddlewareLog) -> TestStore<Composed<WideFeature>> {
  TestStore(
    initialState: WideFeature.State(),
    reducer: WideFeature().forEach(\.items, action: WideFeature.itemCase, element: WideItemFeature()),
    middlewares: wideMiddlewares(log: log),
    reporter: reporter)
}

/// The feature with its large part embedded and its rows composed, behind
/// the three middlewares of `wideMiddlewares(log:)`.
@inline(never)
private func wideComposedTestStore(reporter: TestFailureReporter, log: MiddlewareLog) -> TestStore<
  Composed<Composed<WideFeature>>
> {
  TestStore(
    initialState: WideFeature.State(),
    reducer: WideFeature()
      .embed(LargeFeature(), state: \.large, action: WideFeature.largeCase)
      .forEach(\.items, action: WideFeature.itemCase, element: WideItemFeature()),
    middlewares: wideMiddlewares(log: log),
    reporter: reporter)
}

/// Runs the jobs of the tasks that prefer it on the thread that calls
/// `run(_:)`: async code then runs on that (small) thread, not on the
/// global pool's.
private final class CurrentThreadExecutor: TaskExecutor {
  private let jobs = Mutex<[UnownedJob]>([])
  private let finished = Mutex(false)
  /// Signalled once per job enqueued and once when the body returns.
  private let events = DispatchSemaphore(value: 0)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
    events.signal()
  }

  /// Runs `body` in a task whose jobs run on this thread, until it returns.
  func run(_ body: @escaping @Sendable () async -> Void) {
    Task(executorPreference: self) {
      await body()
      self.finished.withLock { $0 = true }
      self.events.signal()
    }
    while true {
      events.wait()
      if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
        job.runSynchronously(on: asUnownedTaskExecutor())
      } else if finished.withLock({ $0 }) {
        return
      }
    }
  }
}

/// No stack overflow in `TestStore` steps (a send and its assertion, a
/// receive of an effect's action, a failing assertion's diff, a method
/// reducer's commit and received mutations) with a 64 KiB state inline, on
/// a thread with a 512 KiB stack, in optimized builds (`swift test -c
/// release -Xswiftc -enable-testing --filter SmallStack`) and unoptimized
/// ones (see `SmallStack.maker(for:_:)`). The async steps run on the small thread itself:
/// the task prefers an executor that runs its jobs there. Each scenario
/// runs in a child process, so that a stack overflow fails its test instead
/// of ending the run.
final class SmallStackTestStoreTests: XCTestCase {
  private static let stackSize = 512 * 1024

  private func expectChildSucceeds(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let (succeeded, stderr) = try SmallStack.runChild(
      test: "VergeTestingTests.SmallStackTestStoreTests/testChild\(scenario)", scenario: scenario)
    XCTAssertTrue(succeeded, "\(scenario) failed or crashed on a \(Self.stackSize / 1024) KiB stack:\n\(stderr)", file: file, line: line)
  }

  /// Runs `body`'s async steps on a small thread when this process is the
  /// child for `scenario`.
  private func child(_ scenario: String, _ body: @escaping @Sendable () async -> Void) throws {
    guard SmallStack.isChild(running: scenario) else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    SmallStack.run(size: Self.stackSize) {
      CurrentThreadExecutor().run(body)
    }
  }

  func testTheStepsRunOnTheSmallThread() throws { try expectChildSucceeds("OnTheSmallThread") }

  func testChildOnTheSmallThread() throws {
    let outer = ObjectIdentifier(Thread.current)
    let threads = Mutex<[Bool]>([])
    try child("OnTheSmallThread") {
      threads.withLock { $0.append(ObjectIdentifier(Thread.current) != outer) }
      await Task.yield()
      threads.withLock { $0.append(ObjectIdentifier(Thread.current) != outer) }
    }
    XCTAssertEqual(threads.withLock { $0 }, [true, true])
  }

  func testSendAndAssert() throws { try expectChildSucceeds("SendAndAssert") }

  func testChildSendAndAssert() throws {
    let log = FailureLog()
    let makeStore = SmallStack.maker(for: "SendAndAssert") { wideTestStore(reporter: log.reporter) }
    try child("SendAndAssert") {
      let store = makeStore()
      await store.send(.item(id: 2, action: .increment)) { $0.items[id: 2]?.count = 1 }
      await store.send(.bump) {
        $0.large.count = 1
        $0.large.last = 1
      }
      await store.send(.bumpLater)
      await store.receive(.bump) {
        $0.large.count = 2
        $0.large.last = 2
      }
      await store.finish()
      XCTAssertEqual(store.state.large.last, 2)
    }
    XCTAssertEqual(log.messages, [])
  }

  func testAMethodReducersSteps() throws { try expectChildSucceeds("MethodReducer") }

  /// A method reducer's steps: the test's own commit (synchronous, on the
  /// small thread), and a dispatched action's commits received.
  func testChildMethodReducer() throws {
    let log = FailureLog()
    let makeStore = SmallStack.maker(for: "MethodReducer") { wideMethodsTestStore(reporter: log.reporter) }
    try child("MethodReducer") {
      let store = makeStore()
      store.commit({ $0.bump() }) {
        $0.large.count = 1
        $0.large.last = 1
      }
      let twice = store.dispatch { $0.bumpTwice() }
      await store.receive("bump()") {
        $0.large.count = 2
        $0.large.last = 2
      }
      await store.receive("bump()") {
        $0.large.count = 3
        $0.large.last = 3
      }
      _ = try? await twice.value
      await store.finish()
    }
    XCTAssertEqual(log.messages, [])
  }

  func testStepsThroughMiddlewares() throws {
    try expectChildSucceeds("ThroughMiddlewares")
  }

  /// Steps through three middlewares that read the state before and after:
  /// a send, a row's action through `forEach`, and an effect's action
  /// received.
  func testChildThroughMiddlewares() throws {
    let failures = FailureLog()
    let middlewareLog = MiddlewareLog()
    let makeStore = SmallStack.maker(for: "ThroughMiddlewares") {
      wideMiddlewareTestStore(reporter: failures.reporter, log: middlewareLog)
    }
    try child("ThroughMiddlewares") {
      let store = makeStore()
      await store.send(.bump) {
        $0.large.count = 1
        $0.large.last = 1
      }
      await store.send(.item(id: 1, action: .increment)) { $0.items[id: 1]?.count = 1 }
      await store.send(.bumpLater)
      await store.receive(.bump) {
        $0.large.count = 2
        $0.large.last = 2
      }
      await store.finish()
    }
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(
      middlewareLog.seen,
      [
        "c 0->1", "b 0->1", "a 0->1",  // .bump
        "c 1->1", "b 1->1", "a 1->1",  // the row's action
        "c 1->1", "b 1->1", "a 1->1",  // .bumpLater
        "c 1->2", "b 1->2", "a 1->2",  // the .bump its effect sent
      ])
  }

  func testStepsThroughComposedChildren() throws {
    try expectChildSucceeds("ThroughComposedChildren")
  }

  /// Steps whose actions a composed child reduces, through the three
  /// middlewares: the embedded large part's action (`embed`), a row's
  /// (`forEach`), and a row's again after the large part changed.
  func testChildThroughComposedChildren() throws {
    let failures = FailureLog()
    let middlewareLog = MiddlewareLog()
    let makeStore = SmallStack.maker(for: "ThroughComposedChildren") {
      wideComposedTestStore(reporter: failures.reporter, log: middlewareLog)
    }
    try child("ThroughComposedChildren") {
      let store = makeStore()
      await store.send(.large(.bump)) {
        $0.large.count = 1
        $0.large.last = 1
      }
      await store.send(.item(id: 2, action: .increment)) { $0.items[id: 2]?.count = 1 }
      await store.send(.large(.bump)) {
        $0.large.count = 2
        $0.large.last = 2
      }
      await store.send(.item(id: 1, action: .increment)) { $0.items[id: 1]?.count = 1 }
      await store.finish()
    }
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(
      middlewareLog.seen,
      [
        "c 0->1", "b 0->1", "a 0->1",  // the embedded part's .bump
        "c 1->1", "b 1->1", "a 1->1",  // row 2's action
        "c 1->2", "b 1->2", "a 1->2",  // the embedded part's .bump
        "c 2->2", "b 2->2", "a 2->2",  // row 1's action
      ])
  }

  func testAFailingAssertion() throws { try expectChildSucceeds("FailingAssertion") }

  /// A wrong expectation: the diff of two 64 KiB states is made on the
  /// small thread too.
  func testChildFailingAssertion() throws {
    let log = FailureLog()
    let makeStore = SmallStack.maker(for: "FailingAssertion") { wideTestStore(reporter: log.reporter) }
    try child("FailingAssertion") {
      let store = makeStore()
      await store.send(.bump) { $0.large.count = 1 }
      await store.finish()
    }
    XCTAssertEqual(log.messages.count, 1)
    XCTAssertTrue(log.messages.first?.contains("last") ?? false, log.messages.first ?? "")
  }
}
