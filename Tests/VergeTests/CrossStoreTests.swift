import Foundation
import Verge
import VergeTestSupport
import XCTest

/// Two stores that use each other: a commit closure of one that commits to
/// the other, a subscriber of one that reads or commits to the other, from
/// one thread and from many, without deadlock. A hang fails the test after
/// a bounded wait instead of hanging the run; a trap fails it from a child
/// process.
final class CrossStoreTests: XCTestCase {
  struct Pair: Sendable, Equatable {
    var count = 0
    var echo = 0
  }

  private static let child = ChildProcess(variable: "VERGE_CROSS_STORE_CHILD")
  /// How long a scenario that should take milliseconds may take before it
  /// counts as hung.
  private static let hangLimit: DispatchTimeInterval = .seconds(20)

  /// Runs `scenario` on a thread of its own and fails when it has not
  /// returned in `hangLimit` (its threads are then left behind, stuck, and
  /// the caller must not touch the stores again).
  ///
  /// - Returns: Whether the scenario completed.
  private func assertCompletes(
    _ description: String, file: StaticString = #filePath, line: UInt = #line,
    _ scenario: @escaping @Sendable () -> Void
  ) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
      scenario()
      done.signal()
    }.start()
    if done.wait(timeout: .now() + Self.hangLimit) == .timedOut {
      XCTFail("\(description): hung (deadlock)", file: file, line: line)
      return false
    }
    return true
  }

  // MARK: - Two threads

  /// The form: X delivers A to a subscriber that reads B while Y,
  /// inside B's commit closure, commits to A. Before the fix, Y waited for
  /// A's delivery while holding B's lock, and X waited for that lock.
  func testSubscriberReadingOtherStoreWhileItCommitsBackDoesNotDeadlock() {
    crossDelivery(subscriberCommits: false)
  }

  /// The same with the subscriber committing to B instead of reading it.
  func testSubscriberCommittingToOtherStoreWhileItCommitsBackDoesNotDeadlock() {
    crossDelivery(subscriberCommits: true)
  }

  private func crossDelivery(subscriberCommits: Bool) {
    let a = Store<Pair, Never>(initialState: Pair())
    let b = Store<Pair, Never>(initialState: Pair())
    let inDelivery = DispatchSemaphore(value: 0)
    let yInsideB = DispatchSemaphore(value: 0)
    let seen = Recorder<Pair>()
    let subscription = a.sinkState { changes in
      seen.append(changes.current)
      guard changes.previous != nil, changes.count == 1, changes.echo == 0 else { return }
      inDelivery.signal()
      // Y now holds B's lock and is committing to A.
      yInsideB.wait()
      if subscriberCommits {
        b.commit { $0.count += 1 }
      } else {
        _ = b.state.count
      }
    }
    let completed = assertCompletes("X delivering A, Y committing to A inside B's commit closure") {
      let finished = DispatchGroup()
      finished.enter()
      Thread {
        a.commit { $0.count += 1 }
        finished.leave()
      }.start()
      inDelivery.wait()
      finished.enter()
      Thread {
        b.commit { _ in
          yInsideB.signal()
          a.commit { $0.echo += 1 }
        }
        finished.leave()
      }.start()
      finished.wait()
    }
    guard completed else { return }
    XCTAssertEqual(a.state.current, Pair(count: 1, echo: 1))
    XCTAssertEqual(b.state.count, subscriberCommits ? 1 : 0)
    XCTAssertEqual(seen.values, [Pair(), Pair(count: 1), Pair(count: 1, echo: 1)])
    subscription.cancel()
  }

  // MARK: - One thread

  /// One thread commits to A inside B's commit closure while a subscriber of
  /// A reads B. Before the fix it delivered A at once, still inside B's
  /// closure, and trapped as if B's own closure had read B.
  func testCommitInsideOtherStoresClosureWithSubscriberReadingIt() throws {
    try expectChildSucceeds("ReadInsideOther")
  }

  func testChildReadInsideOther() throws {
    try onlyAsChild("ReadInsideOther")
    let a = Store<Pair, Never>(initialState: Pair())
    let b = Store<Pair, Never>(initialState: Pair(count: 7))
    let read = Recorder<Int>()
    let subscription = a.sinkState(dropsFirst: true) { _ in read.append(b.state.count) }
    let result = b.commit { b -> Int in
      b.count += 1
      a.commit { $0.echo += 1 }
      // A's subscriber runs once B's closure has ended, not in it.
      XCTAssertEqual(read.values, [])
      return 42
    }
    XCTAssertEqual(result, 42)
    // ... but before B's `commit` returns, and it sees B's new state.
    XCTAssertEqual(read.values, [8])
    XCTAssertEqual(a.state.echo, 1)
    subscription.cancel()
  }

  /// The one-thread form on A's delivering thread: A's subscriber commits to
  /// A from inside B's commit closure, and another subscriber of A reads B.
  func testCommitToDeliveringStoreInsideOtherStoresClosure() throws {
    try expectChildSucceeds("CommitWhileDelivering")
  }

  func testChildCommitWhileDelivering() throws {
    try onlyAsChild("CommitWhileDelivering")
    let a = Store<Pair, Never>(initialState: Pair())
    let b = Store<Pair, Never>(initialState: Pair())
    let seen = Recorder<Pair>()
    let readB = Recorder<Int>()
    let echo = a.sinkState(dropsFirst: true) { changes in
      guard changes.echo == 0 else { return }
      b.commit { b in
        b.count += 1
        a.commit { $0.echo += 1 }
      }
    }
    let reader = a.sinkState(dropsFirst: true) { changes in
      seen.append(changes.current)
      readB.append(b.state.count)
    }
    a.commit { $0.count += 1 }
    XCTAssertEqual(a.state.current, Pair(count: 1, echo: 1))
    XCTAssertEqual(seen.values, [Pair(count: 1), Pair(count: 1, echo: 1)])
    XCTAssertEqual(readB.values.last, 1)
    echo.cancel()
    reader.cancel()
  }

  /// A commit to A inside B's closure inside C's closure: A's subscriber runs
  /// once the outermost closure has ended, and may use all three stores.
  func testNestedClosuresDeliverAfterTheOutermost() {
    let a = Store<Pair, Never>(initialState: Pair())
    let b = Store<Pair, Never>(initialState: Pair())
    let c = Store<Pair, Never>(initialState: Pair())
    let sums = Recorder<Int>()
    let subscription = a.sinkState(dropsFirst: true) { changes in
      sums.append(changes.echo + b.state.count + c.state.count)
      c.commit { $0.echo += 1 }
    }
    let completed = assertCompletes("nested commit closures") {
      c.commit { c in
        c.count += 1
        b.commit { b in
          b.count += 1
          a.commit { $0.echo += 1 }
        }
      }
    }
    guard completed else { return }
    XCTAssertEqual(sums.values, [3])
    XCTAssertEqual(c.state.current, Pair(count: 1, echo: 1))
    subscription.cancel()
  }

  /// The snippet of the Concurrency article ("Several stores"), as written.
  func testConcurrencyArticleSnippet() {
    let a = Store<Pair, Never>(initialState: Pair())
    let b = Store<Pair, Never>(initialState: Pair())
    let seen = Recorder<Pair>()
    let subscription = a.sinkState(dropsFirst: true) { changes in
      // Runs after B's closure, so it may read B.
      seen.append(Pair(count: b.state.count, echo: changes.echo))
    }
    b.commit { b in
      b.count += 1
      a.commit { $0.echo += 1 }   // A's subscribers run once B's closure has ended
    }
    XCTAssertEqual(seen.values, [Pair(count: 1, echo: 1)])
    subscription.cancel()
  }

  // MARK: - Many threads

  /// Commits across two stores from many threads: into A from B's commit
  /// closures, into B from A's subscribers (and A's subscribers reading B),
  /// plain commits to both. Exact counts, and every subscriber sees each
  /// store's versions in increasing order.
  func testCrossCommitsFromManyThreads() {
    let threads = 8
    let rounds = 300
    let a = Store<Pair, Never>(initialState: Pair())
    let b = Store<Pair, Never>(initialState: Pair())
    let aVersions = Recorder<UInt64>()
    let bVersions = Recorder<UInt64>()
    let aOrder = a.sinkState(dropsFirst: true) { changes in aVersions.append(changes.version) }
    let bOrder = b.sinkState(dropsFirst: true) { changes in bVersions.append(changes.version) }
    // Every odd count of A commits once to B, reading B first.
    let aToB = a.sinkState(dropsFirst: true) { changes in
      guard changes.hasChanged(\.count), changes.count % 2 == 1 else { return }
      _ = b.state.count
      b.commit { $0.echo += 1 }
    }
    // Every count of B that is a multiple of 3 commits once to A.
    let bToA = b.sinkState(dropsFirst: true) { changes in
      guard changes.hasChanged(\.count), changes.count % 3 == 0 else { return }
      _ = a.state.echo
      a.commit { $0.echo += 1 }
    }
    let completed = assertCompletes("cross commits from \(threads) threads") {
      concurrently(threads: threads) { thread in
        for round in 0..<rounds {
          switch (thread + round) % 3 {
          case 0:
            b.commit { b in
              b.count += 1
              a.commit { $0.count += 1 }
            }
          case 1:
            a.commit { $0.count += 1 }
          default:
            b.commit { $0.count += 1 }
          }
        }
      }
    }
    guard completed else { return }
    let total = threads * rounds
    let nested = (0..<threads).reduce(0) { sum, thread in
      sum + (0..<rounds).count { (thread + $0) % 3 == 0 }
    }
    let plainA = (0..<threads).reduce(0) { sum, thread in
      sum + (0..<rounds).count { (thread + $0) % 3 == 1 }
    }
    let aCount = nested + plainA
    let bCount = total - plainA
    XCTAssertEqual(a.state.count, aCount)
    XCTAssertEqual(b.state.count, bCount)
    XCTAssertEqual(b.state.echo, (aCount + 1) / 2)
    XCTAssertEqual(a.state.echo, bCount / 3)
    // One delivery per version, in increasing order, for each store.
    XCTAssertEqual(aVersions.values, Array(1...UInt64(aCount + bCount / 3)))
    XCTAssertEqual(bVersions.values, Array(1...UInt64(bCount + (aCount + 1) / 2)))
    for subscription in [aOrder, bOrder, aToB, bToA] { subscription.cancel() }
  }

  // MARK: - Child processes

  private func expectChildSucceeds(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let outcome = try Self.child.run(test: "VergeTests.CrossStoreTests/testChild\(name)", scenario: name)
    XCTAssertFalse(outcome.hung, "child \(name) hung (deadlock)", file: file, line: line)
    XCTAssertTrue(outcome.exited, outcome.stderr, file: file, line: line)
    XCTAssertEqual(outcome.status, 0, outcome.stderr, file: file, line: line)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
  }
}
