import Dispatch
import Synchronization
import Verge
import XCTest

final class SinkStateTests: XCTestCase {
  func testFirstDeliveryIsTheCurrentStateWithoutPrevious() {
    let store = Store<Counter, Never>(initialState: Counter(count: 7))
    let received = Recorder<Changes<Counter>>()
    let subscription = store.sinkState { received.append($0) }
    XCTAssertEqual(received.count, 1)
    XCTAssertNil(received.values[0].previous)
    XCTAssertEqual(received.values[0].count, 7)

    store.commit { $0.count = 8 }
    XCTAssertEqual(received.values[1].previous?.count, 7)
    XCTAssertEqual(received.values[1].current.count, 8)
    withExtendedLifetime(subscription) {}
  }

  func testDropsFirst() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { received.append($0.count) }
    XCTAssertEqual(received.values, [])
    store.commit { $0.count = 1 }
    XCTAssertEqual(received.values, [1])
    withExtendedLifetime(subscription) {}
  }

  func testDeliveryHappensBeforeCommitReturns() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Int>()
    let subscription = store.sinkState(dropsFirst: true) { received.append($0.count) }
    for value in 1...50 {
      store.commit { $0.count = value }
      XCTAssertEqual(received.values.last, value, "delivered before commit returned")
    }
    withExtendedLifetime(subscription) {}
  }

  func testConcurrentCommitsAreDeliveredInOrderExactlyOnce() {
    let store = Store<Counter, Never>(initialState: Counter())
    let received = Recorder<Changes<Counter>>()
    let inside = Atomic<Int>(0)
    let overlapped = Atomic<Bool>(false)
    let subscription = store.sinkState { changes in
      if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
        overlapped.store(true, ordering: .relaxed)
      }
      received.append(changes)
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    concurrently(threads: 8) { _ in
      for _ in 0..<250 { store.commit { $0.count += 1 } }
    }

    let counts = received.values.map(\.current.count)
    XCTAssertEqual(counts.count, 2001)
    XCTAssertEqual(counts, Array(0...2000))
    for changes in received.values.dropFirst() {
      XCTAssertEqual(changes.previous?.count, changes.current.count - 1)
    }
    XCTAssertFalse(overlapped.load(ordering: .relaxed), "a subscriber ran concurrently with itself")
    XCTAssertEqual(store.state.count, 2000)
    withExtendedLifetime(subscription) {}
  }

  func testReentrantCommitFromSubscriberKeepsOrderForEveryone() {
    let store = Store<Counter, Never>(initialState: Counter())
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    // The first subscriber bounces every odd count to the next even one.
    let a = store.sinkState(dropsFirst: true) { changes in
      first.append(changes.count)
      if changes.count % 2 == 1 {
        store.commit { $0.count += 1 }
      }
    }
    let b = store.sinkState(dropsFirst: true) { changes in second.append(changes.count) }

    for _ in 0..<5 { store.commit { $0.count += 1 } }

    XCTAssertEqual(store.state.count, 10)
    XCTAssertEqual(first.values, Array(1...10))
    XCTAssertEqual(second.values, Array(1...10))
    withExtendedLifetime((a, b)) {}
  }

  func testReentrantCommitsUnderConcurrencyNeitherDeadlockNorReorder() {
    let store = Store<Counter, Never>(initialState: Counter())
    let observed = Recorder<Int>()
    let a = store.sinkState(dropsFirst: true) { changes in
      // Rename once per count ending in 5: a commit notifies whenever it
      // writes, so the rename's own delivery must not rename again.
      if changes.count % 10 == 5, changes.name != "\(changes.count)" {
        store.commit { $0.name = "\(changes.count)" }
      }
    }
    let b = store.sinkState(dropsFirst: true) { changes in observed.append(changes.count) }
    concurrently(threads: 4) { _ in
      for _ in 0..<100 { store.commit { $0.count += 1 } }
    }
    let values = observed.values
    // 400 increments, plus one rename for each count ending in 5 (seen with that count again).
    XCTAssertEqual(values.count, 440)
    XCTAssertEqual(Set(values), Set(1...400))
    XCTAssertEqual(zip(values, values.dropFirst()).filter { $0 > $1 }.count, 0, "older after newer")
    withExtendedLifetime((a, b)) {}
  }

  func testSubscribingFromInsideASubscriberDoesNotDeadlock() {
    let store = Store<Counter, Never>(initialState: Counter())
    let inner = Recorder<Int>()
    let tokens = SharedLock<[StoreSubscription]>([])
    let outer = store.sinkState(dropsFirst: true) { changes in
      guard changes.count == 1 else { return }
      let token = store.sinkState { inner.append($0.count) }
      tokens.withLock { $0.append(token) }
    }
    store.commit { $0.count = 1 }
    store.commit { $0.count = 2 }
    XCTAssertEqual(inner.values, [1, 2])
    withExtendedLifetime(outer) {}
  }

  func testDeliveryOnADispatchQueueKeepsOrder() {
    let store = Store<Counter, Never>(initialState: Counter())
    let queue = DispatchQueue(label: "verge.tests.delivery")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let received = Recorder<Int>()
    let onQueue = Atomic<Bool>(true)
    let subscription = store.sinkState(queue: .dispatch(queue)) { changes in
      if DispatchQueue.getSpecific(key: key) != true { onQueue.store(false, ordering: .relaxed) }
      received.append(changes.count)
    }
    for _ in 0..<100 { store.commit { $0.count += 1 } }
    queue.sync {}
    XCTAssertEqual(received.values, Array(0...100))
    XCTAssertTrue(onQueue.load(ordering: .relaxed))
    withExtendedLifetime(subscription) {}
  }

  func testDeliveryOnTheMainQueue() {
    let store = Store<Counter, Never>(initialState: Counter())
    let delivered = expectation(description: "main queue delivery")
    let onMain = Atomic<Bool>(false)
    let subscription = store.sinkState(dropsFirst: true, queue: .main) { changes in
      onMain.store(Thread.isMainThread, ordering: .relaxed)
      if changes.count == 1 { delivered.fulfill() }
    }
    DispatchQueue.global().async { store.commit { $0.count = 1 } }
    wait(for: [delivered], timeout: 10)
    XCTAssertTrue(onMain.load(ordering: .relaxed))
    withExtendedLifetime(subscription) {}
  }
}
