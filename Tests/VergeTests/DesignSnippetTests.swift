@_spi(Internal) import Verge
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
}
