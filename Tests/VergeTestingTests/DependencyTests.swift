import Foundation
import VergeTestSupport
import XCTest

@testable import Verge
@testable import VergeTesting

/// Dependencies: defaults in tests, overrides where a store is made,
/// inheritance through scopes and compositions, effects, threads.
final class DependencyTests: XCTestCase {
  func testATestProcessUsesTestValues() {
    XCTAssertEqual(DependencyContext.process, .test)
    XCTAssertEqual(DependencyValues().greeter, .named("test"))
    XCTAssertEqual(Store<Int, Never>(initialState: 0).dependencies.greeter, .named("test"))
    var values = DependencyValues()
    values.context = .live
    XCTAssertEqual(values.greeter, .named("live"))
    values.context = .preview
    XCTAssertEqual(values.greeter, .named("preview"))
  }

  func testACoreStoreKeepsWhatItWasMadeWithAndItsCommitsReadIt() {
    let store = Store<[String], Never>(initialState: []) { $0.greeter = .named("store") }
    XCTAssertEqual(store.dependencies.greeter, .named("store"))
    store.commit { state in
      @Dependency(\.greeter) var greeter
      state.modify { $0.append(greeter.name) }
    }
    XCTAssertEqual(store.state.current, ["store"])
    // Outside the commit, the values in effect are the defaults again.
    XCTAssertEqual(DependencyValues.current.greeter, .named("test"))
  }

  func testWithDependenciesSetsTheValuesOfStoresMadeInside() {
    let store = withDependencies {
      $0.greeter = .named("outer")
    } operation: {
      XCTAssertEqual(DependencyValues.current.greeter, .named("outer"))
      return withDependencies {
        $0.meaning = 7
      } operation: {
        Store<Int, Never>(initialState: 0)
      }
    }
    XCTAssertEqual(store.dependencies.greeter, .named("outer"))
    XCTAssertEqual(store.dependencies.meaning, 7)
  }

  func testAReducerAndItsEffectReadTheValuesOfTheStoreThatRunsThem() async {
    let store = ActionStore(
      initialState: .init(), reducer: GreetingFeature(), withDependencies: { $0.greeter = .named("A") })
    store.send(.greet)
    await store.send(.greetLater).finish()
    XCTAssertEqual(store.state.current.seen, ["A", "A"])
  }

  func testAScopeWithItsOwnReducerInheritsItsRootsValuesAndCanOverride() async {
    struct Root: Equatable, Sendable {
      var first = GreetingFeature.State()
      var second = GreetingFeature.State()
    }
    let root = Store<Root, Never>(initialState: Root()) { $0.greeter = .named("root") }
    let inheriting = root.scope(\.first, reducer: GreetingFeature())
    let overriding = root.scope(\.second, reducer: GreetingFeature().dependency(\.greeter, .named("scope")))
    XCTAssertEqual(inheriting.dependencies.greeter, .named("root"))
    inheriting.send(.greet)
    await inheriting.send(.greetLater).finish()
    overriding.send(.greet)
    await overriding.send(.greetLater).finish()
    XCTAssertEqual(root.state.current.first.seen, ["root", "root"])
    XCTAssertEqual(root.state.current.second.seen, ["scope", "scope"])
  }

  func testComposedChildrenInheritTheirParentsValues() async {
    let store = ActionStore(
      initialState: .init(), reducer: composedGreetingParent(override: false),
      withDependencies: { $0.greeter = .named("root") })
    store.send(.parent)
    store.send(.embedded(.greet))
    store.send(.row(id: 2, action: .greet))
    store.send(.optional(.greet))
    await store.send(.row(id: 1, action: .greetLater)).finish()
    await store.send(.optional(.greetLater)).finish()
    let state = store.state.current
    XCTAssertEqual(state.seen, ["root"])
    XCTAssertEqual(state.embedded.seen, ["root"])
    XCTAssertEqual(state.rows[id: 1]?.seen, ["root"])
    XCTAssertEqual(state.rows[id: 2]?.seen, ["root"])
    XCTAssertEqual(state.optional?.seen, ["root", "root"])
  }

  func testAParentOverridesPerChildAndTheChildsEffectsSeeTheOverride() async {
    let store = ActionStore(
      initialState: .init(), reducer: composedGreetingParent(override: true),
      withDependencies: { $0.greeter = .named("root") })
    store.send(.parent)
    store.send(.embedded(.greet))
    store.send(.row(id: 2, action: .greet))
    store.send(.optional(.greet))
    await store.send(.row(id: 1, action: .greetLater)).finish()
    await store.send(.optional(.greetLater)).finish()
    await store.send(.embedded(.greetLater)).finish()
    let state = store.state.current
    XCTAssertEqual(state.seen, ["root"])
    XCTAssertEqual(state.embedded.seen, ["root", "root"])
    XCTAssertEqual(state.rows[id: 1]?.seen, ["row"])
    XCTAssertEqual(state.rows[id: 2]?.seen, ["row"])
    XCTAssertEqual(state.optional?.seen, ["optional", "optional"])
  }

  func testConcurrentStoresNeverSeeEachOthersValues() async {
    let names = (0..<8).map { "store \($0)" }
    let stores = names.map { name in
      ActionStore(initialState: .init(), reducer: GreetingFeature(), withDependencies: { $0.greeter = .named(name) })
    }
    DispatchQueue.concurrentPerform(iterations: stores.count * 4) { index in
      let store = stores[index % stores.count]
      for _ in 0..<50 { store.send(.greet) }
    }
    await withTaskGroup(of: Void.self) { group in
      for store in stores {
        group.addTask {
          for _ in 0..<5 { await store.send(.greetLater).finish() }
        }
      }
    }
    for (store, name) in zip(stores, names) {
      XCTAssertEqual(store.state.current.seen, Array(repeating: name, count: 205))
    }
  }

  func testAMethodReducersMutationsAndActionsReadTheStoresValues() async throws {
    let store = ReducerStore(initialState: [], reducer: GreetingReducer(), withDependencies: { $0.greeter = .named("method") })
    store.commit { $0.greet() }
    try await store.dispatch { $0.greetLater() }
    XCTAssertEqual(store.state.current, ["method", "method"])
  }

  func testAMethodScopeInheritsItsRootsValues() async throws {
    struct Whole: Equatable, Sendable { var part: [String] = [] }
    struct WholeReducer: ReducerType { typealias TargetState = Whole }
    let root = ReducerStore(initialState: Whole(), reducer: WholeReducer(), withDependencies: { $0.greeter = .named("root") })
    let scope = root.scope(\.part, reducer: GreetingReducer())
    scope.commit { $0.greet() }
    try await scope.dispatch { $0.greetLater() }
    XCTAssertEqual(root.state.current.part, ["root", "root"])
    XCTAssertEqual(scope.dependencies.greeter, .named("root"))
  }

  func testAMethodScopeOverridesForItselfAndWhatItScopesFurther() async throws {
    struct Part: ReducerType {
      typealias TargetState = [String]
      @Dependency(\.greeter) var greeter
      @Dependency(\.meaning) var meaning

      func greet() -> Mutation { .init { $0.append("\(self.greeter.name) \(self.meaning)") } }

      func greetLater() -> Action<Void> {
        .init { context in
          await resumeOnAnotherThread()
          let name = self.greeter.name
          // Read again inside the mutation, which runs in the root's commit.
          context.commit { _ in .init { $0.append("\(name) then \(self.greeter.name)") } }
        }
      }
    }
    struct Whole: Equatable, Sendable {
      var part: [String] = []
      var other: [String] = []
      var feature = GreetingFeature.State()
    }
    struct WholeReducer: ReducerType { typealias TargetState = Whole }
    struct Holder: Equatable, Sendable {
      var whole = Whole()
    }
    struct HolderReducer: ReducerType { typealias TargetState = Holder }

    let roots: [(String, ScopedStore<HolderReducer>)] = [
      ("core", Store<Holder, Never>(initialState: Holder()) { $0.greeter = .named("root"); $0.meaning = 1 }
        .scope(\.self, reducer: HolderReducer())),
      ("reducer", ReducerStore(initialState: Holder(), reducer: HolderReducer()) { $0.greeter = .named("root"); $0.meaning = 1 }
        .scope(\.self, reducer: HolderReducer())),
    ]
    for (kind, root) in roots {
      let plain = root.scope(\.whole, reducer: WholeReducer())
      let overriding = plain.dependency(\.greeter, .named("scope")).dependency(\.meaning, 2)
      let part = overriding.scope(\.part, reducer: Part())
      part.commit { $0.greet() }
      try await part.dispatch { $0.greetLater() }
      XCTAssertEqual(root.state.current.whole.part, ["scope 2", "scope then scope"], kind)
      XCTAssertEqual(part.dependencies.greeter, .named("scope"), kind)
      XCTAssertEqual(overriding.dependencies.meaning, 2, kind)

      let feature = overriding.scope(\.feature, reducer: GreetingFeature())
      feature.send(.greet)
      await feature.send(.greetLater).finish()
      XCTAssertEqual(root.state.current.whole.feature.seen, ["scope", "scope"], kind)

      // The scope it was made from, and the root, keep theirs.
      let other = plain.scope(\.other, reducer: Part())
      other.commit { $0.greet() }
      XCTAssertEqual(root.state.current.whole.other, ["root 1"], kind)
      XCTAssertEqual(plain.dependencies.greeter, .named("root"), kind)
      XCTAssertEqual(root.dependencies.greeter, .named("root"), kind)
    }
  }

  func testAReductionOutsideTheTestContextReadsItsStoresValues() async {
    // Outside the test context a reduction reads through the inlined path.
    let overridden = ActionStore(initialState: GreetingFeature.State(), reducer: GreetingFeature()) {
      $0.context = .preview
      $0.greeter = .named("overridden")
    }
    let defaulted = ActionStore(initialState: GreetingFeature.State(), reducer: GreetingFeature()) {
      $0.context = .live
    }
    overridden.send(.greet)
    defaulted.send(.greet)
    defaulted.send(.greet)
    await overridden.send(.greetLater).finish()
    XCTAssertEqual(overridden.state.current.seen, ["overridden", "overridden"])
    XCTAssertEqual(defaulted.state.current.seen, ["live", "live"])
    // Inside a frame of `withDependencies`, the frame wins.
    let framed = Store<[String], Never>(initialState: []) { $0.context = .live }
    framed.commit { state in
      withDependencies { $0.greeter = .named("framed") } operation: {
        @Dependency(\.greeter) var greeter
        state.modify { $0.append(greeter.name) }
      }
      @Dependency(\.greeter) var greeter
      state.modify { $0.append(greeter.name) }
    }
    XCTAssertEqual(framed.state.current, ["framed", "live"])
  }

  func testTheBuiltInsAreControllableInTests() async throws {
    let store = Store<Int, Never>(initialState: 0)
    let uuid = store.dependencies.uuid
    XCTAssertEqual(uuid().uuidString, "00000000-0000-0000-0000-000000000000")
    XCTAssertEqual(uuid().uuidString, "00000000-0000-0000-0000-000000000001")
    // A store's scopes and copies of its values share the count.
    XCTAssertEqual(store.dependencies.uuid().uuidString, "00000000-0000-0000-0000-000000000002")
    // Another store counts on its own.
    XCTAssertEqual(Store<Int, Never>(initialState: 0).dependencies.uuid().uuidString, "00000000-0000-0000-0000-000000000000")
    XCTAssertEqual(store.dependencies.date.now, DateGenerator.testDate)
    let rolls = (0..<5).map { _ in Store<Int, Never>(initialState: 0).dependencies.random { Int.random(in: 1...1000, using: &$0) } }
    XCTAssertEqual(Set(rolls).count, 1, "a test's random numbers repeat from store to store")
    let seeded = RandomGenerator.seeded(42)
    let draws = (0..<3).map { _ in seeded { $0.next() } }
    XCTAssertEqual(Set(draws).count, 3, "one generator draws different numbers")
    let clock = try XCTUnwrap(store.dependencies.clock as? TestClock)
    XCTAssertTrue(store.dependencies.clock as? TestClock === clock, "a store keeps one test clock")
    var live = DependencyValues()
    live.context = .live
    XCTAssertTrue(live.clock is ContinuousClock)
    let other = live.uuid()
    XCTAssertNotEqual(other, live.uuid())
  }

  func testVergeFindsVergeTestingsRecorderByName() {
    XCTAssertEqual(_mangledTypeName(DependencyIssueRecorder.self), DependencyIssue.recorderName)
    XCTAssertTrue(DependencyIssue.recorder == DependencyIssueRecorder.self)
  }

  func testAReportNamesTheDependencysProperty() {
    XCTAssertEqual(DependencyIssue.propertyName(guessedFrom: MeaningKey.self), "meaning")
    enum APIClientKey {}
    XCTAssertEqual(DependencyIssue.propertyName(guessedFrom: APIClientKey.self), "apiClient")
  }

  func testAnOverriddenDependencyWithoutATestValueIsFine() {
    let store = Store<Int, Never>(initialState: 0) { $0.meaning = 1 }
    XCTAssertEqual(store.dependencies.meaning, 1)
  }
}

/// A dependency without a test value, used in an XCTest test, records an
/// XCTest failure there: captured here through XCTest's own hook.
final class MissingTestValueXCTests: XCTestCase {
  private let failures = SharedLock<[(message: String, line: Int)]>([])

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      failures.withLock { $0.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0)) }
    }
  #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
      failures.withLock { $0.append((description, lineNumber)) }
    }
  #endif

  func testAReducerUsingADependencyWithoutATestValueFailsTheTestWhereItIsUsed() async {
    struct Feature: ActionReducer {
      @Dependency(\.meaning) var meaning
      func reduce(into state: inout Int, action: Void) -> Effect<Void, Never> {
        state = meaning
        return .none
      }
    }
    expectOneFailure(sendingTwiceTo: Feature(), usedAt: #line - 6)
  }

  func testAReducerReadingByKeyADependencyWithoutATestValueFailsTheTestWhereItIsUsed() async {
    struct Feature: ActionReducer {
      @Dependency(MeaningKey.self) var meaning
      func reduce(into state: inout Int, action: Void) -> Effect<Void, Never> {
        state = meaning
        return .none
      }
    }
    expectOneFailure(sendingTwiceTo: Feature(), usedAt: #line - 6)
  }

  /// Sends two actions to a store of `reducer`, which reads `meaning` at
  /// `line`, and expects one failure there naming the key and the override.
  private func expectOneFailure<Reducer: ActionReducer>(
    sendingTwiceTo reducer: Reducer, usedAt line: Int, file: StaticString = #filePath, callLine: UInt = #line
  ) where Reducer.State == Int, Reducer.Action == Void {
    let store = ActionStore(initialState: 0, reducer: reducer)
    store.send(())
    store.send(())
    let recorded = failures.withLock { $0 }
    XCTAssertEqual(recorded.count, 1, "reported once per store", file: file, line: callLine)
    XCTAssertEqual(recorded.first?.line, line, file: file, line: callLine)
    let message = recorded.first?.message ?? ""
    XCTAssertTrue(message.contains("MeaningKey"), message, file: file, line: callLine)
    XCTAssertTrue(message.contains("withDependencies: { $0.meaning = … }"), message, file: file, line: callLine)
    XCTAssertEqual(store.state.current, 42, "the value stands in after the failure", file: file, line: callLine)
  }
}

/// A method reducer that appends the `greeter` dependency's name, now and
/// after resuming on another thread: what the method-reducer tests read.
private struct GreetingReducer: ReducerType {
  typealias TargetState = [String]
  @Dependency(\.greeter) var greeter

  func greet() -> Mutation { .init { $0.append(self.greeter.name) } }

  func greetLater() -> Action<Void> {
    .init { context in
      await resumeOnAnotherThread()
      let name = self.greeter.name
      context.commit { _ in .init { $0.append(name) } }
    }
  }
}
