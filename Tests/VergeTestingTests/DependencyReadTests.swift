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

/// How a `@Dependency` reads: by its property's key once that is found, by
/// calling the property when the property computes its value; and defaults
/// computed once however many threads need them first at once.
final class DependencyReadTests: XCTestCase {
  /// A reducer's wrappers, read by stores with different values (the
  /// wrappers themselves, to see what they found).
  struct Reader: ActionReducer {
    let greeter = Dependency(\.greeter)
    let shouted = Dependency(\.shoutedGreeter)
    let name = Dependency(\.greeterName)
    let both = Dependency(\.greeterAndMeaning)
    let clock = Dependency(\.clock)

    func reduce(into state: inout [String], action: Void) -> Effect<Void, Never> {
      state.append(greeter.wrappedValue.name)
      state.append(shouted.wrappedValue.name)
      state.append(name.wrappedValue)
      state.append(both.wrappedValue.name)
      state.append(clock.wrappedValue is TestClock ? "test clock" : "other clock")
      return .none
    }
  }

  /// Greets with one wrapper.
  struct Greeting: ActionReducer {
    let greeter = Dependency(\.greeter)

    func reduce(into state: inout [String], action: Void) -> Effect<Void, Never> {
      state.append(greeter.wrappedValue.name)
      return .none
    }
  }

  func testAPropertyThatReturnsItsKeysValueIsReadByTheKeyInEveryStore() {
    let reader = Reader()
    let first = ActionStore(initialState: [], reducer: reader) {
      $0.greeter = .named("first")
      $0.meaning = 1
    }
    let second = ActionStore(initialState: [], reducer: reader) { $0.meaning = 2 }
    // The first read calls the properties, the second finds their keys;
    // the later ones read by key where that was found.
    for _ in 0..<3 {
      first.send(())
      second.send(())
    }
    XCTAssertEqual(
      first.state.current,
      Array(repeating: ["first", "FIRST", "first", "first 1", "test clock"], count: 3).flatMap { $0 })
    XCTAssertEqual(
      second.state.current,
      Array(repeating: ["test", "TEST", "test", "test 2", "test clock"], count: 3).flatMap { $0 })
    XCTAssertEqual(reader.greeter.site.key.load(ordering: .relaxed), UInt(bitPattern: ObjectIdentifier(GreeterKey.self)))
    // An existential value too.
    XCTAssertEqual(reader.clock.site.key.load(ordering: .relaxed), UInt(bitPattern: ObjectIdentifier(ClockKey.self)))
    // Computed: a changed value, a member of a value, two keys.
    XCTAssertEqual(reader.shouted.site.key.load(ordering: .relaxed), DependencySite.computed)
    XCTAssertEqual(reader.name.site.key.load(ordering: .relaxed), DependencySite.computed)
    XCTAssertEqual(reader.both.site.key.load(ordering: .relaxed), DependencySite.computed)
  }

  func testAKeyFoundInOneStoreReadsTheDefaultsFramesAndBoundValuesOfOthers() {
    let feature = Greeting()
    let found = ActionStore(initialState: [], reducer: feature) { $0.greeter = .named("found") }
    found.send(())
    found.send(())
    XCTAssertEqual(feature.greeter.site.key.load(ordering: .relaxed), UInt(bitPattern: ObjectIdentifier(GreeterKey.self)))
    // A default not resolved yet in a new store, then kept there.
    let fresh = ActionStore(initialState: [], reducer: feature)
    fresh.send(())
    fresh.send(())
    // A child's own value, as a frame over its store's.
    let framed = ActionStore(initialState: [], reducer: feature.dependency(\.greeter, .named("framed"))) {
      $0.greeter = .named("store")
    }
    framed.send(())
    // Outside any store: the values of `withDependencies`.
    let outside = withDependencies { $0.greeter = .named("outside") } operation: { feature.greeter.wrappedValue.name }
    XCTAssertEqual(found.state.current, ["found", "found"])
    XCTAssertEqual(fresh.state.current, ["test", "test"])
    XCTAssertEqual(framed.state.current, ["framed"])
    XCTAssertEqual(outside, "outside")
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

extension DependencyValues {
  var counted: Int { self[CountedKey.self] }

  var derivedFromGreeter: String { self[DerivedFromGreeterKey.self] }

  /// One key's value, changed.
  var shoutedGreeter: Greeter { Greeter(name: self[GreeterKey.self].name.uppercased()) }

  /// A member of one key's value.
  var greeterName: String { self[GreeterKey.self].name }

  /// Two keys' values.
  var greeterAndMeaning: Greeter { Greeter(name: "\(self[GreeterKey.self].name) \(self[MeaningKey.self])") }
}
