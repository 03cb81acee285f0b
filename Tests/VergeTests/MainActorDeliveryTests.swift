import Dispatch
import Foundation
@testable import Verge
import XCTest

/// Any main-actor class stands in for UIKit's here (UIKit does not exist on Linux).
@MainActor final class FakeLabel {
  var text: String?
  var history: [String] = []
}

/// DESIGN.md's UIKit snippet, as the seeds write it, in Swift 6 mode.
@MainActor final class CropViewController {
  private struct State: Equatable { var isSelectingAspectRatio = false }
  private let store: Store<State, Never> = .init(initialState: .init())
  private var subscriptions = Set<VergeAnyCancellable>()
  let label = FakeLabel()
  func viewDidLoad() {
    store.sinkState { [weak self] state in
      guard let self = self else { return }
      state.ifChanged(\.isSelectingAspectRatio) { value in
        self.label.text = "\(value)"
      }
    }
    .store(in: &subscriptions)
  }
  func toggle() { store.commit { $0.isSelectingAspectRatio.toggle() } }
  func toggleFromAnotherThread() async {
    let store = self.store
    await Task.detached { store.commit { $0.isSelectingAspectRatio.toggle() } }.value
  }
}

/// Counts deliveries on the main actor and lets a test await the n-th one.
@MainActor final class MainActorLog {
  var values: [Int] = []
  var onMainThread = true
  private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

  func record(_ value: Int) {
    onMainThread = onMainThread && Thread.isMainThread
    values.append(value)
    let ready = waiters.filter { $0.0 <= values.count }
    waiters.removeAll { $0.0 <= values.count }
    for (_, continuation) in ready { continuation.resume() }
  }

  func waitFor(count: Int) async {
    if values.count >= count { return }
    await withCheckedContinuation { waiters.append((count, $0)) }
  }
}

final class MainActorDeliveryTests: XCTestCase {
  @MainActor
  func testTheSeedsViewControllerCompilesAndItsHandlerRunsOnTheMainActor() async {
    let controller = CropViewController()
    controller.viewDidLoad()
    XCTAssertEqual(controller.label.text, "false", "the first delivery runs at once on the main thread")
    controller.toggle()
    XCTAssertEqual(controller.label.text, "true", "a commit on the main thread delivers before it returns")
    await controller.toggleFromAnotherThread()
    // Delivered on the main queue: wait for it without sleeping.
    while controller.label.text != "false" { await Task.yield() }
    XCTAssertEqual(controller.label.text, "false")
  }

  @MainActor
  func testCommitsFromOtherThreadsArriveOnTheMainActorInCommitOrder() async {
    struct State: Equatable { var count = 0 }
    let store = Store<State, Never>(initialState: State())
    let log = MainActorLog()
    let subscription = store.sinkState(dropsFirst: true) { changes in
      log.record(changes.count)
    }
    // Background commits queue deliveries to the main queue while the main
    // thread is blocked; a commit on the main thread right after must not
    // overtake them.
    let committed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for _ in 0..<50 { store.commit { $0.count += 1 } }
      committed.signal()
    }
    committed.wait()
    XCTAssertEqual(log.values, [], "nothing could run on the blocked main thread")
    store.commit { $0.count += 1 }
    XCTAssertEqual(log.values, [], "a main-thread delivery waits behind queued ones")
    await Task.detached {
      for _ in 0..<49 { store.commit { $0.count += 1 } }
    }.value
    await log.waitFor(count: 100)
    XCTAssertEqual(log.values, Array(1...100))
    XCTAssertTrue(log.onMainThread)
    subscription.cancel()
  }

  @MainActor
  func testCancellingDropsDeliveriesStillWaitingForTheMainQueue() async {
    struct State: Equatable { var count = 0 }
    let store = Store<State, Never>(initialState: State())
    let log = MainActorLog()
    let subscription = store.sinkState(dropsFirst: true) { changes in
      log.record(changes.count)
    }
    // Queue three deliveries behind the blocked main thread, then cancel.
    let committed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for _ in 0..<3 { store.commit { $0.count += 1 } }
      committed.signal()
    }
    committed.wait()
    subscription.cancel()
    // Runs after the drain that was queued first.
    await withCheckedContinuation { continuation in
      DispatchQueue.main.async { continuation.resume() }
    }
    XCTAssertEqual(log.values, [], "no delivery starts after cancel() returns")
  }

  @MainActor
  func testActivitiesAndDerivedValuesDeliverOnTheMainActor() async {
    struct State: Equatable { var count = 0 }
    let store = Store<State, Int>(initialState: State())
    let activities = MainActorLog()
    let derivedLog = MainActorLog()
    var subscriptions = Set<VergeAnyCancellable>()
    store.sinkActivity { activities.record($0) }.store(in: &subscriptions)
    store.derived(.map { $0.count * 2 }).sinkState { derivedLog.record($0.current) }
      .store(in: &subscriptions)
    store.send(7)
    store.commit { $0.count = 1 }
    XCTAssertEqual(activities.values, [7], "sent on the main thread: delivered at once")
    XCTAssertEqual(derivedLog.values, [0, 2])
    await Task.detached {
      store.send(8)
      store.commit { $0.count = 2 }
    }.value
    await activities.waitFor(count: 2)
    await derivedLog.waitFor(count: 3)
    XCTAssertEqual(activities.values, [7, 8])
    XCTAssertEqual(derivedLog.values, [0, 2, 4])
    XCTAssertTrue(activities.onMainThread && derivedLog.onMainThread)
  }

  func testAnActorsHandlerRunsOnThatActorInOrder() async {
    struct State: Equatable { var count = 0 }
    actor Collector {
      var values: [Int] = []
      var subscription: StoreSubscription?
      private var waiter: (Int, CheckedContinuation<Void, Never>)?

      func follow(_ store: Store<State, Never>) {
        subscription = store.sinkState(dropsFirst: true) { changes in
          // Touches actor state directly: the handler is isolated to this actor.
          self.values.append(changes.count)
          if let (count, continuation) = self.waiter, self.values.count >= count {
            self.waiter = nil
            continuation.resume()
          }
        }
      }

      func waitFor(count: Int) async -> [Int] {
        if values.count < count {
          await withCheckedContinuation { waiter = (count, $0) }
        }
        return values
      }
    }
    let store = Store<State, Never>(initialState: State())
    let collector = Collector()
    await collector.follow(store)
    for _ in 0..<20 { store.commit { $0.count += 1 } }
    let values = await collector.waitFor(count: 20)
    XCTAssertEqual(values, Array(1...20))
  }

  func testNonisolatedHandlersStillRunOnTheCommittingThread() {
    struct State: Equatable { var count = 0 }
    let store = Store<State, Never>(initialState: State())
    let threads = Recorder<Bool>()
    let subscription = store.sinkState(dropsFirst: true) { _ in
      threads.append(Thread.isMainThread)
    }
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      store.commit { $0.count = 1 }
      XCTAssertEqual(threads.values, [false], "delivered before commit returned, on the committing thread")
      done.signal()
    }
    done.wait()
    subscription.cancel()
  }
}
