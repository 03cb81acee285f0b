import Foundation
@testable import Verge
import VergeTestSupport
import XCTest

/// Two stores nested in opposite orders (one's lock taken inside the other's
/// commit closure, and the other way round) could deadlock, so the second
/// order traps, whatever the timing: even on one thread, where nothing
/// would have deadlocked. A trap ends the process, so
/// those cases run in a child process; a hang of one fails the test after a
/// bounded wait.
final class CrossStoreLockOrderTests: XCTestCase {
  struct First: Sendable, Equatable {
    var count = 0
  }

  struct Second: Sendable, Equatable {
    var count = 0
  }

  private static let child = ChildProcess(variable: "VERGE_LOCK_ORDER_CHILD")

  /// Runs `testChild<name>` of this class in a child process, killing it
  /// when it has not ended within 20 seconds (counted as a hang).
  ///
  /// - Returns: Whether it exited normally with status 0, and its output.
  private func runChild(_ name: String) throws -> (succeeded: Bool, stderr: String) {
    let outcome = try Self.child.run(
      test: "VergeTests.CrossStoreLockOrderTests/testChild\(name)", scenario: name, timeout: 20)
    if outcome.hung { XCTFail("child \(name) hung (deadlock)") }
    // A failed assertion of the child is on its output.
    return (outcome.succeeded, outcome.stderr + outcome.stdout)
  }

  private func onlyAsChild(_ name: String) throws {
    guard Self.child.isRunning(name) else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
  }

  /// The message names the store nested second (inner) and the one it was
  /// nested in, each by state type.
  private func assertLockOrderTrap(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(
      stderr.contains("Verge misuse: the store of `Second` at 0x"), stderr, file: file, line: line)
    XCTAssertTrue(
      stderr.contains("was used inside a commit closure of the store of `First` at 0x"), stderr,
      file: file, line: line)
    XCTAssertTrue(
      stderr.contains("was used inside a commit closure of the store of `Second` at 0x"), stderr,
      file: file, line: line)
    XCTAssertTrue(stderr.contains("can deadlock"), stderr, file: file, line: line)
  }

  // MARK: - Traps

  /// One thread, one order after the other: nothing would deadlock, and the
  /// second order traps all the same.
  func testOppositeNestingOnOneThreadTraps() throws {
    let (succeeded, stderr) = try runChild("OppositeNestingOnOneThread")
    XCTAssertFalse(succeeded, stderr)
    assertLockOrderTrap(stderr)
  }

  func testChildOppositeNestingOnOneThread() throws {
    try onlyAsChild("OppositeNestingOnOneThread")
    let a = Store<First, Never>(initialState: First())
    let b = Store<Second, Never>(initialState: Second())
    b.commit { _ in a.commit { $0.count += 1 } }
    a.commit { _ in b.commit { $0.count += 1 } }
  }

  /// A read of `state` takes the store's lock too.
  func testOppositeReadsOnOneThreadTrap() throws {
    let (succeeded, stderr) = try runChild("OppositeReadsOnOneThread")
    XCTAssertFalse(succeeded, stderr)
    assertLockOrderTrap(stderr)
  }

  func testChildOppositeReadsOnOneThread() throws {
    try onlyAsChild("OppositeReadsOnOneThread")
    let a = Store<First, Never>(initialState: First())
    let b = Store<Second, Never>(initialState: Second())
    b.commit { _ in _ = a.state.count }
    a.commit { _ in _ = b.state.count }
  }

  /// Two threads inside the two commit closures at once, each about to
  /// take the other store: without the check, both would wait forever.
  func testOppositeNestingOnTwoThreadsTrapsInsteadOfDeadlocking() throws {
    let (succeeded, stderr) = try runChild("OppositeNestingOnTwoThreads")
    XCTAssertFalse(succeeded, stderr)
    XCTAssertTrue(stderr.contains("Verge misuse: the store of `"), stderr)
    XCTAssertTrue(stderr.contains("can deadlock"), stderr)
  }

  func testChildOppositeNestingOnTwoThreads() throws {
    try onlyAsChild("OppositeNestingOnTwoThreads")
    let a = Store<First, Never>(initialState: First())
    let b = Store<Second, Never>(initialState: Second())
    let bothInside = DispatchGroup()
    bothInside.enter()
    bothInside.enter()
    let done = DispatchGroup()
    done.enter()
    done.enter()
    Thread {
      a.commit { _ in
        bothInside.leave()
        bothInside.wait()
        b.commit { $0.count += 1 }
      }
      done.leave()
    }.start()
    Thread {
      b.commit { _ in
        bothInside.leave()
        bothInside.wait()
        a.commit { $0.count += 1 }
      }
      done.leave()
    }.start()
    done.wait()
  }

  /// Three stores nested in a cycle (A in B, B in C, C in A) can deadlock
  /// three threads: the last nesting traps.
  func testNestingCycleOfThreeStoresTraps() throws {
    let (succeeded, stderr) = try runChild("NestingCycleOfThreeStores")
    XCTAssertFalse(succeeded, stderr)
    XCTAssertTrue(stderr.contains("Verge misuse: the store of `"), stderr)
    XCTAssertTrue(stderr.contains("can deadlock"), stderr)
  }

  func testChildNestingCycleOfThreeStores() throws {
    try onlyAsChild("NestingCycleOfThreeStores")
    let a = Store<First, Never>(initialState: First())
    let b = Store<Second, Never>(initialState: Second())
    let c = Store<First, Never>(initialState: First())
    a.commit { _ in b.commit { $0.count += 1 } }
    b.commit { _ in c.commit { $0.count += 1 } }
    c.commit { _ in a.commit { $0.count += 1 } }
  }

  // MARK: - No trap

  /// Many threads nesting B in A (commits and reads), beside plain commits
  /// to both: one order, no trap, exact counts.
  func testSameOrderOnManyThreadsDoesNotTrap() {
    let a = Store<First, Never>(initialState: First())
    let b = Store<Second, Never>(initialState: Second())
    let rounds = 200
    concurrently(threads: 8) { thread in
      for round in 0..<rounds {
        if (thread + round) % 2 == 0 {
          a.commit { a in
            a.count += 1
            _ = b.state.count
            b.commit { $0.count += 1 }
          }
        } else {
          b.commit { $0.count += 1 }
          a.commit { $0.count += 1 }
        }
      }
    }
    XCTAssertEqual(a.state.count, 8 * rounds)
    XCTAssertEqual(b.state.count, 8 * rounds)
  }

  /// Stores that nested and went away pass nothing on to new stores made at
  /// their addresses (the order is kept by the address of each store's
  /// core): the new ones nest in the opposite order by address,
  /// in a child process so that a wrong trap fails the test.
  func testFreedStoresPassNoOrderOnToStoresAtTheirAddresses() throws {
    let (succeeded, stderr) = try runChild("FreedStoresPassNoOrderOn")
    XCTAssertTrue(succeeded, stderr)
  }

  func testChildFreedStoresPassNoOrderOn() throws {
    try onlyAsChild("FreedStoresPassNoOrderOn")
    var reused = 0
    for _ in 0..<20 {
      // Pairs nested B's in A's, then freed: their cores' addresses.
      var pairs: [(a: ObjectIdentifier, b: ObjectIdentifier)] = []
      do {
        let stores = (0..<64).map { _ in Store<First, Never>(initialState: First()) }
        for index in stride(from: 0, to: stores.count, by: 2) {
          let (a, b) = (stores[index], stores[index + 1])
          a.commit { _ in b.commit { $0.count += 1 } }
          pairs.append((ObjectIdentifier(a.core), ObjectIdentifier(b.core)))
        }
      }
      // New stores, some at those addresses: nested the other way round.
      let stores = (0..<256).map { _ in Store<First, Never>(initialState: First()) }
      let byAddress = Dictionary(uniqueKeysWithValues: stores.map { (ObjectIdentifier($0.core), $0) })
      for pair in pairs {
        guard let atA = byAddress[pair.a], let atB = byAddress[pair.b] else { continue }
        reused += 1
        atB.commit { _ in atA.commit { $0.count += 1 } }
      }
    }
    XCTAssertGreaterThan(reused, 0, "the allocator never reused both addresses of a pair; the test proves nothing")
  }
}
