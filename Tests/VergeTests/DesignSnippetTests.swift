import Verge
import Dispatch
import XCTest

/// The fragments of Verge's documentation that DESIGN.md promises compile
/// unchanged, checked here so they keep compiling and behaving.
final class DesignSnippetTests: XCTestCase {
  func testCoreSnippetsCompileAndBehave() async throws {
    struct MyState: Equatable { var count: Int = 0 }
    enum MyActivity { case somethingHappened }
    let printed = SharedLock<[Int]>([])
    @Sendable func print(_ value: Int) { printed.withLock { $0.append(value) } }
    @Sendable func runMyOperation() async {}

    let store = Store<_, Never>(initialState: MyState())
    store.commit { $0.count += 1 }
    store.sinkState { state in
      state.ifChanged(\.count) { count in print(count) }
    }
    .storeWhileSourceActive()

    let events: Store<MyState, MyActivity> = .init(initialState: .init())
    events.send(MyActivity.somethingHappened)
    events.sinkActivity { (activity: MyActivity) in }.storeWhileSourceActive()

    store.task { await runMyOperation() }
    store.task(key: .init("MyOperation"), mode: .dropCurrent) { }

    let derived: Derived<Int> = store.derived(.select(\.count))
    let doubled: Derived<Int> = store.derived(.map { $0.count * 2 })
    let text: Derived<String> = derived.derived(.map { $0.description })
    derived.sinkState { value in }.storeWhileSourceActive()

    final class CounterViewModel: StoreComponentType {
      struct State: Equatable { var count: Int = 0 }
      let store: Store<State, Never> = .init(initialState: .init())
      func increment() { commit { $0.count += 1 } }
    }

    store.commit { $0.count += 1 }
    XCTAssertEqual(printed.withLock { $0 }, [1, 2])
    XCTAssertEqual(derived.value, 2)
    XCTAssertEqual(doubled.value, 4)
    XCTAssertEqual(text.value, "2")

    let viewModel = CounterViewModel()
    viewModel.increment()
    XCTAssertEqual(viewModel.state.count, 1)
  }

  /// Verge 8 README: a view model and its subscriptions, unchanged but for
  /// `self.` where Swift requires it.
  func testVerge8ViewModelSnippetCompilesAndBehaves() {
    final class MyViewModel: StoreComponentType {
      struct State: Equatable {
        struct NestedState: Equatable { var flag = false }
        var name: String = ""
        var count: Int = 0
        var nested: NestedState = .init()
      }
      let store: DefaultStore = .init(initialState: .init())
      func myAction() { commit { $0.name = "Hello, Verge" } }
      func incrementAsync() {
        DispatchQueue.global().async { self.commit { $0.count += 1 } }
      }
    }
    let viewModel = MyViewModel()
    let names = SharedLock<[String]>([])
    let pairs = SharedLock<[String]>([])

    var subscriptions = Set<VergeAnyCancellable>()
    var cancellable: VergeAnyCancellable?
    cancellable = viewModel.sinkState { (state: Changes<MyViewModel.State>) in
      state.ifChanged(\.name) { (name) in names.withLock { $0.append(name) } }
      state.ifChanged({ ($0.name, $0.count) }, ==) { (name, count) in
        pairs.withLock { $0.append("\(name)/\(count)") }
      }
    }
    viewModel.sinkState { _ in }.store(in: &subscriptions)
    let nested = viewModel.store.derived(.map(\.nested))

    viewModel.myAction()
    let counted = expectation(description: "incrementAsync committed")
    let waiter = viewModel.store.derived(.select(\.count)).sinkState(dropsFirst: true) { _ in
      counted.fulfill()
    }
    viewModel.incrementAsync()
    wait(for: [counted], timeout: 10)
    viewModel.commit { $0.nested.flag = true }

    XCTAssertEqual(names.withLock { $0 }, ["", "Hello, Verge"])
    XCTAssertEqual(pairs.withLock { $0 }, ["/0", "Hello, Verge/0", "Hello, Verge/1"])
    XCTAssertEqual(nested.value, MyViewModel.State.NestedState(flag: true))
    XCTAssertEqual(subscriptions.count, 1)
    XCTAssertNotNil(cancellable)
    withExtendedLifetime(waiter) {}
  }

  /// Verge README: a derived value's one-liner subscription keeps delivering.
  func testDerivedOneLinerKeepsDelivering() {
    struct MyState: Equatable { var count: Int = 0 }
    let store = Store<_, Never>(initialState: MyState())
    let received = SharedLock<[Int]>([])
    store.derived(.map { $0.count * 2 }).sinkState { value in
      received.withLock { $0.append(value.current) }
    }.storeWhileSourceActive()
    store.commit { $0.count += 1 }
    store.commit { $0.count += 1 }
    XCTAssertEqual(received.withLock { $0 }, [0, 2, 4])
  }

  /// `version` on the store, on `Changes` and on derived values.
  func testVersionsGrowWithEveryChangeAndAgree() {
    struct MyState: Equatable { var count: Int = 0 }
    let store = Store<_, Never>(initialState: MyState())
    let versions = SharedLock<[UInt64]>([])
    let subscription = store.sinkState { changes in versions.withLock { $0.append(changes.version) } }
    let start = store.version
    store.commit { $0.count += 1 }
    store.commit { _ in }  // writes nothing: no change, no new version
    store.commit { $0.count = 1 }  // writes an equal value: a change, as in Verge
    XCTAssertEqual(versions.withLock { $0 }, [start, start + 1, start + 2])
    XCTAssertEqual(store.version, start + 2)
    withExtendedLifetime(subscription) {}
  }
}
