import Verge
import VergeNeue
import VergeTesting

extension Scenario {
  /// 6. VergeTesting: a `TestStore` send with its state assertion, against
  /// a bare `ActionStore` send and a comparison with the expected state.
  static var testing: Scenario {
    Scenario(
      number: 6,
      title: "VergeTesting: TestStore send/assert round trip",
      cases: [
        BenchmarkCase(
          name: "TestStore send(.increment) { $0.count += 1 } vs ActionStore send + ==",
          library: { testStoreRoundTrip() },
          baseline: { actionStoreRoundTrip() })
      ],
      // No target here; the ratio is reported.
      targets: { _ in [] })
  }
}

/// Each operation is one `await store.send(.increment) { ... }`, with
/// exhaustivity on; a batch runs in one task (see `runBlocking`). Failures
/// are counted: a run that reports one stops the suite, since it would not
/// be measuring the passing path.
private func testStoreRoundTrip() -> Workload {
  let failures = Locked<[String]>([])
  let reporter = TestFailureReporter { message, _, _ in failures.withLock { $0.append(message) } }
  let store = Unshared(
    TestStore(initialState: Counter(), reducer: CounterActions(), reporter: reporter))
  return Workload { iterations in
    runBlocking {
      for _ in 0..<iterations {
        await store.value.send(.increment) { $0.count &+= 1 }
      }
    }
    let reported = failures.withLock { $0 }
    precondition(reported.isEmpty, "TestStore reported failures: \(reported)")
  }
}

/// What a test does without the test store: send, then compare the state
/// with the expected one.
private func actionStoreRoundTrip() -> Workload {
  let store = ActionStore(initialState: Counter(), reducer: CounterActions())
  return Workload(keepAlive: [store]) { iterations in
    runBlocking {
      for _ in 0..<iterations {
        var expected = store.state.current
        expected.count &+= 1
        store.send(.increment)
        precondition(store.state.current == expected, "the send did not increment")
      }
    }
  }
}
