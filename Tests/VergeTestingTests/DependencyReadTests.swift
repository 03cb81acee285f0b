import Foundation
import VergeTestSupport
import XCTest

@testable import Verge
@testable import VergeTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a `@Dependency` reads: by calling its property at every read, or by
/// its key when it names one; and defaults computed once however many
/// threads need them first at once.
final class DependencyReadTests: XCTestCase {
  /// Reads properties that compute something from one key.
  struct Transforming: ActionReducer {
    @Dependency(\.baseURL) var baseURL
    @Dependency(\.shoutedGreeter) var shouted
    @Dependency(\.atLeastOneMeaning) var atLeastOne

    func reduce(into state: inout [String], action: Void) -> Effect<Void, Never> {
      state.append(baseURL?.absoluteString ?? "nil")
      state.append(shouted.name)
      state.append("\(atLeastOne)")
      return .none
    }
  }

  func testAPropertyThatTransformsItsKeysValueReturnsWhatItComputesInEveryStore() {
    let feature = Transforming()
    // Read repeatedly where each property leaves its key's value as it is…
    let identity = ActionStore(initialState: [], reducer: feature) {
      $0[BaseURLKey.self] = URL(string: "https://set.example")
      $0.greeter = .named("LOUD")
      $0.meaning = 5
    }
    for _ in 0..<3 { identity.send(()) }
    // …then where it changes it: the property's result, at every read.
    let changed = ActionStore(initialState: [], reducer: feature) { $0.meaning = 0 }
    for _ in 0..<3 { changed.send(()) }
    XCTAssertEqual(
      identity.state.current, Array(repeating: ["https://set.example", "LOUD", "5"], count: 3).flatMap { $0 })
    XCTAssertEqual(
      changed.state.current, Array(repeating: ["https://fallback.example", "TEST", "1"], count: 3).flatMap { $0 })
  }

  /// Reads one property four ways, one key and a member of one.
  struct Reader: ActionReducer {
    @Dependency(\.greeterName) var name
    @Dependency(\.greeterAndMeaning) var both
    @Dependency(\.clock) var clock

    func reduce(into state: inout [String], action: Void) -> Effect<Void, Never> {
      state.append(name)
      state.append(both.name)
      state.append(clock is TestClock ? "test clock" : "other clock")
      return .none
    }
  }

  func testAPropertyThatComputesItsValueIsCalledAtEveryRead() {
    let reader = Reader()
    let first = ActionStore(initialState: [], reducer: reader) {
      $0.greeter = .named("first")
      $0.meaning = 1
    }
    let second = ActionStore(initialState: [], reducer: reader) { $0.meaning = 2 }
    for _ in 0..<3 {
      first.send(())
      second.send(())
    }
    XCTAssertEqual(first.state.current, Array(repeating: ["first", "first 1", "test clock"], count: 3).flatMap { $0 })
    XCTAssertEqual(second.state.current, Array(repeating: ["test", "test 2", "test clock"], count: 3).flatMap { $0 })
  }

  func testTheKeyFormReadsTheReducingStoresValueAndItsEffectsDoOnAnotherThread() async {
    let feature = GreetingFeature(byKey: true)
    XCTAssertEqual(Dependency(GreeterKey.self).site.key, UInt(bitPattern: ObjectIdentifier(GreeterKey.self)))
    let set = ActionStore(initialState: .init(), reducer: feature) { $0.greeter = .named("set") }
    let unset = ActionStore(initialState: .init(), reducer: feature)
    for _ in 0..<2 {
      set.send(.greet)
      unset.send(.greet)
    }
    await set.send(.greetLater).finish()
    await unset.send(.greetLater).finish()
    XCTAssertEqual(set.state.current.seen, ["set", "set", "set"])
    XCTAssertEqual(unset.state.current.seen, ["test", "test", "test"])
  }

  func testTheKeyFormSeesOverridesOnChildrenScopesAndWithDependencies() async {
    let store = ActionStore(
      initialState: .init(), reducer: composedGreetingParent(override: true, byKey: true),
      withDependencies: { $0.greeter = .named("root") })
    store.send(.embedded(.greet))
    store.send(.row(id: 2, action: .greet))
    store.send(.optional(.greet))
    await store.send(.row(id: 1, action: .greetLater)).finish()
    await store.send(.optional(.greetLater)).finish()
    let state = store.state.current
    XCTAssertEqual(state.embedded.seen, ["root"])
    XCTAssertEqual(state.rows[id: 1]?.seen, ["row"])
    XCTAssertEqual(state.rows[id: 2]?.seen, ["row"])
    XCTAssertEqual(state.optional?.seen, ["optional", "optional"])
    // A scope's override, over its root's value.
    struct Root: Equatable, Sendable {
      var first = GreetingFeature.State()
    }
    let root = Store<Root, Never>(initialState: Root()) { $0.greeter = .named("root") }
    let scope = root.scope(\.first, reducer: GreetingFeature(byKey: true).dependency(\.greeter, .named("scope")))
    scope.send(.greet)
    await scope.send(.greetLater).finish()
    XCTAssertEqual(root.state.current.first.seen, ["scope", "scope"])
    // Outside any store.
    let key = Dependency(GreeterKey.self)
    let outside = withDependencies { $0.greeter = .named("outside") } operation: { key.wrappedValue.name }
    XCTAssertEqual(outside, "outside")
    XCTAssertEqual(key.wrappedValue.name, "test")
  }

  func testADefaultIsComputedOnceWhenThreadsReadItFirstAtOnce() {
    let threads = 4
    for _ in 0..<3 {
      let values = DependencyValues()
      CountedDefault.reset(awaiting: threads - 1, at: values.storage.defaults)
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      let read = SharedLock<[Int]>([])
      for _ in 0..<threads {
        done.enter()
        Thread {
          start.wait()
          let value = values.counted
          read.withLock { $0.append(value) }
          done.leave()
        }.start()
      }
      for _ in 0..<threads { start.signal() }
      done.wait()
      XCTAssertEqual(CountedDefault.computations.withLock { $0 }, 1)
      XCTAssertEqual(read.withLock { $0 }, Array(repeating: 1, count: threads))
    }
  }

  func testADefaultMayResolveAnotherDefaultWhileItIsComputed() {
    let values = DependencyValues()
    // The greeter's default is resolved, in the same values, while the
    // derived one is being computed.
    XCTAssertEqual(DependencyValues.withValues(values) { values.derivedFromGreeter }, "derived from test")
    XCTAssertEqual(values.greeter, .named("test"))
    XCTAssertEqual(values.storage.defaults.resolvedCount, 2)
  }
}

/// A default that counts its computations and, while computing, waits
/// until the other readers wait for it (or, were nothing to stop them,
/// until a second reader computes it too).
enum CountedDefault {
  static let computations = SharedLock(0)
  static let awaited = SharedLock<(readers: Int, defaults: ResolvedDefaults)?>(nil)

  static func reset(awaiting readers: Int, at defaults: ResolvedDefaults) {
    computations.withLock { $0 = 0 }
    awaited.withLock { $0 = (readers, defaults) }
  }

  static func compute() -> Int {
    let count = computations.withLock { $0 += 1; return $0 }
    if let (readers, defaults) = awaited.withLock({ $0 }) {
      var spins = 0
      while defaults.waitingThreads(for: CountedKey.self) < readers, computations.withLock({ $0 }) == 1,
        spins < 10_000_000
      {
        sched_yield()
        spins += 1
      }
    }
    return count
  }
}

enum CountedKey: DependencyKey {
  static var liveValue: Int { CountedDefault.compute() }
  static var testValue: Int { CountedDefault.compute() }
}

/// A default computed from another dependency in effect.
enum DerivedFromGreeterKey: DependencyKey {
  static var liveValue: String { testValue }
  static var testValue: String {
    @Dependency(\.greeter) var greeter
    return "derived from \(greeter.name)"
  }
}

/// An optional setting, unset by default.
enum BaseURLKey: DependencyKey {
  static let liveValue: URL? = nil
  static let testValue: URL? = nil
}

extension DependencyValues {
  var counted: Int { self[CountedKey.self] }

  /// One key's value, or a fallback when it is unset.
  var baseURL: URL? { self[BaseURLKey.self] ?? URL(string: "https://fallback.example")! }

  /// One key's value, raised to 1.
  var atLeastOneMeaning: Int { max(self[MeaningKey.self], 1) }

  var derivedFromGreeter: String { self[DerivedFromGreeterKey.self] }

  /// One key's value, changed.
  var shoutedGreeter: Greeter { Greeter(name: self[GreeterKey.self].name.uppercased()) }

  /// A member of one key's value.
  var greeterName: String { self[GreeterKey.self].name }

  /// Two keys' values.
  var greeterAndMeaning: Greeter { Greeter(name: "\(self[GreeterKey.self].name) \(self[MeaningKey.self])") }
}
