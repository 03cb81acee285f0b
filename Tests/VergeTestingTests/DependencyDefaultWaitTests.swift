import Foundation
import VergeTestSupport
import XCTest

@testable import Verge

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread that holds a store's lock never waits for another thread to
/// compute a default: that thread may need the store.
final class DependencyDefaultWaitTests: XCTestCase {
  struct Count: Equatable, Sendable {
    var value = 0
  }

  /// Thread A computes the default of `StoreCommittingKey`, which commits to
  /// `store`; thread B, inside a commit closure of `store`, reads the key
  /// first meanwhile. B computes its own value instead of waiting at the
  /// key's gate (where, holding the store's lock, it would never be let
  /// through), and the value kept first is the one both get.
  func testAReaderInsideACommitClosureDoesNotWaitForADefaultThatCommitsToItsStore() {
    let values = DependencyValues()
    let store = DependencyValues.withValues(values) { Store<Count, Never>(initialState: Count()) }
    XCTAssertTrue(store.dependencies.storage.defaults === values.storage.defaults)
    StoreCommittingDefault.reset(store: store, defaults: values.storage.defaults)

    let done = DispatchGroup()
    let readByA = SharedLock<Int?>(nil)
    let readByB = SharedLock<Int?>(nil)
    done.enter()
    Thread {
      readByA.withLock { $0 = values.storeCommitting }
      done.leave()
    }.start()
    done.enter()
    Thread {
      StoreCommittingDefault.firstStarted.wait()
      store.commit { state in
        @Dependency(\.storeCommitting) var value
        let read = value
        readByB.withLock { $0 = read }
        state.value += read
      }
      done.leave()
    }.start()
    done.wait()

    let observed = StoreCommittingDefault.observed.withLock { $0 }
    XCTAssertFalse(observed.waited, "the reader inside the commit closure waited at the key's gate")
    XCTAssertEqual(observed.computations, 2)
    // B's value, kept first, is what both read; A's commit ran after B's.
    XCTAssertEqual(readByB.withLock { $0 }, 2)
    XCTAssertEqual(readByA.withLock { $0 }, 2)
    XCTAssertEqual(values.storeCommitting, 2)
    XCTAssertEqual(store.state.current.value, 2 + (observed.waited ? 0 : 10))
  }
}

/// A default whose first computation waits until another thread either
/// computes the key too or waits for it, then (unless a thread waits, which
/// would hold the store's lock for ever) commits to a store.
enum StoreCommittingDefault {
  struct Observed: Sendable {
    var computations = 0
    var waited = false
  }

  static let observed = SharedLock(Observed())
  static let target = SharedLock<(store: Store<DependencyDefaultWaitTests.Count, Never>, defaults: ResolvedDefaults)?>(
    nil)
  /// Signalled when the first computation starts.
  static let firstStarted = DispatchSemaphore(value: 0)

  static func reset(store: Store<DependencyDefaultWaitTests.Count, Never>, defaults: ResolvedDefaults) {
    observed.withLock { $0 = Observed() }
    target.withLock { $0 = (store, defaults) }
  }

  static func compute() -> Int {
    let count = observed.withLock { $0.computations += 1; return $0.computations }
    guard count == 1, let (store, defaults) = target.withLock({ $0 }) else { return count }
    firstStarted.signal()
    var spins = 0
    while observed.withLock({ $0.computations }) == 1, defaults.waitingThreads(for: StoreCommittingKey.self) == 0,
      spins < 10_000_000
    {
      sched_yield()
      spins += 1
    }
    if defaults.waitingThreads(for: StoreCommittingKey.self) > 0 {
      // The other thread waits holding the store's lock: committing now
      // would never end, so the test records it instead.
      observed.withLock { $0.waited = true }
      return count
    }
    store.commit { $0.value += 10 }
    return count
  }
}

enum StoreCommittingKey: DependencyKey {
  static var liveValue: Int { StoreCommittingDefault.compute() }
  static var testValue: Int { StoreCommittingDefault.compute() }
}

extension DependencyValues {
  var storeCommitting: Int { self[StoreCommittingKey.self] }
}
