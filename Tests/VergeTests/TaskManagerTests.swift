import Synchronization
import Verge
import VergeTestSupport
import XCTest

final class TaskManagerTests: XCTestCase {
  func testTaskRunsAndCanBeAwaited() async throws {
    let store = Store<Counter, Never>(initialState: Counter())
    let task = store.task { store.commit { $0.count = 1 } }
    try await task.value
    XCTAssertEqual(store.state.count, 1)
  }

  func testDropCurrentCancelsTheRunningTaskOfTheKey() async throws {
    let manager = TaskManager()
    let started = Gate()
    let first = manager.task(key: TaskKey("load")) {
      started.open()
      // Runs until cancelled; no sleeping involved in the test's timing.
      await suspendUntilCancelled()
    }
    await started.wait()
    let second = manager.task(key: TaskKey("load"), mode: .dropCurrent) {}
    try await second.value
    XCTAssertTrue(first.isCancelled)
  }

  func testWaitInCurrentRunsInOrder() async throws {
    let manager = TaskManager()
    let order = Recorder<Int>()
    let release = Gate()
    let first = manager.task(key: TaskKey("queue"), mode: .waitInCurrent) {
      await release.wait()
      order.append(1)
    }
    let second = manager.task(key: TaskKey("queue"), mode: .waitInCurrent) { order.append(2) }
    let third = manager.task(key: TaskKey("queue"), mode: .waitInCurrent) { order.append(3) }
    XCTAssertEqual(manager.count(key: TaskKey("queue")), 3)
    release.open()
    try await first.value
    try await second.value
    try await third.value
    XCTAssertEqual(order.values, [1, 2, 3])
  }

  func testDropCurrentAlsoDropsQueuedTasks() async throws {
    let manager = TaskManager()
    let ran = Recorder<String>()
    let release = Gate()
    let running = manager.task(key: TaskKey("k"), mode: .waitInCurrent) {
      await release.wait()
      try Task.checkCancellation()
      ran.append("running")
    }
    let queued = manager.task(key: TaskKey("k"), mode: .waitInCurrent) { ran.append("queued") }
    let replacement = manager.task(key: TaskKey("k"), mode: .dropCurrent) { ran.append("replacement") }
    try await replacement.value
    release.open()
    _ = await running.result
    let queuedResult = await queued.result
    XCTAssertThrowsError(try queuedResult.get()) { XCTAssertTrue($0 is CancellationError) }
    XCTAssertEqual(ran.values, ["replacement"])
  }

  func testCancelByKeyAndCancelAll() async {
    let manager = TaskManager()
    let a = manager.task(key: TaskKey("a")) { await suspendUntilCancelled() }
    let b = manager.task(key: TaskKey("b")) { await suspendUntilCancelled() }
    manager.cancel(key: TaskKey("a"))
    XCTAssertTrue(a.isCancelled)
    XCTAssertFalse(b.isCancelled)
    manager.cancelAll()
    XCTAssertTrue(b.isCancelled)
    XCTAssertEqual(manager.count(), 0)
  }

  func testUniqueKeysDoNotInterfere() async throws {
    let manager = TaskManager()
    let done = Recorder<Int>()
    let tasks = (0..<10).map { i in manager.task { done.append(i) } }
    for task in tasks { try await task.value }
    XCTAssertEqual(Set(done.values), Set(0..<10))
    XCTAssertNotEqual(TaskKey(), TaskKey())
    XCTAssertEqual(TaskKey("x"), TaskKey("x"))
  }

  func testStoreDeinitCancelsItsTasksAndTasksDoNotKeepItAlive() async {
    weak var weakStore: Store<Counter, Never>?
    let started = Gate()
    var task: Task<Void, any Error>?
    do {
      let store = Store<Counter, Never>(initialState: Counter())
      weakStore = store
      task = store.task(key: TaskKey("forever")) {
        started.open()
        await suspendUntilCancelled()
      }
      await started.wait()
    }
    XCTAssertNil(weakStore)
    XCTAssertEqual(task?.isCancelled, true)
  }

  func testFinishedTasksLeaveTheManager() async throws {
    let manager = TaskManager()
    try await manager.task(key: TaskKey("once")) {}.value
    XCTAssertEqual(manager.count(key: TaskKey("once")), 0)
  }
}
