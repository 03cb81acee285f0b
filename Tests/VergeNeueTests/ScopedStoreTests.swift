import Synchronization
import VergeNeue
import VergeTestSupport
import XCTest

struct Profile: Equatable, Sendable {
  var name = ""
  var address = Address()
}

struct Address: Equatable, Sendable {
  var city = ""
}

struct AppState: Equatable, Sendable {
  var profile = Profile()
  var counter = RootState()
  var unrelated = 0
}

final class ProfileReducer: ReducerType {
  typealias TargetState = Profile
  func rename(_ name: String) -> Mutation { .init { $0.name = name } }
  func renameLater(_ name: String) -> Action<String> {
    .init { context in
      context.commit { $0.rename(name) }
      return context.state.name
    }
  }
}

final class AddressReducer: ReducerType {
  typealias TargetState = Address
  func move(to city: String) -> Mutation { .init { $0.city = city } }
}

final class ScopedStoreTests: XCTestCase {
  func testCommitsChangeTheParentInPlaceAndParentSubscribersSeeThem() throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let names = Collected<String>()
    parent.sinkState(dropsFirst: true) { names.append($0.profile.name) }.storeWhileSourceActive()
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    try profile.commit { $0.rename("Ada") }
    XCTAssertEqual(parent.state.profile.name, "Ada")
    XCTAssertEqual(try profile.state.name, "Ada")
    XCTAssertEqual(names.all, ["Ada"])
  }

  func testNotifiesOnlyWhenItsFragmentChanges() throws {
    let parent = ReducerStore(initialState: AppState(), reducer: AppReducer())
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    let seen = Collected<String>()
    try profile.sinkState { seen.append($0.name) }.storeWhileSourceActive()
    parent.commit { $0.bumpUnrelated() }
    parent.commit { $0.bumpUnrelated() }
    try profile.commit { $0.rename("Grace") }
    XCTAssertEqual(seen.all, ["", "Grace"])
    let length = try profile.derived(.map { $0.name.count })
    XCTAssertEqual(length.value, 5)
  }

  func testChangesSequenceCarriesOnlyTheFragmentsChanges() async throws {
    let parent = ReducerStore(initialState: AppState(), reducer: AppReducer())
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    var changes = try profile.changes.makeAsyncIterator()
    let first = await changes.next()
    XCTAssertEqual(first?.current.name, "")
    parent.commit { $0.bumpUnrelated() }
    try profile.commit { $0.rename("Ada") }
    let second = await changes.next()
    XCTAssertEqual(second?.previous?.name, "")
    XCTAssertEqual(second?.current.name, "Ada")
  }

  func testTasksBelongToTheScopeAndEndWithIt() async throws {
    let parent = ReducerStore(initialState: AppState(), reducer: AppReducer())
    var profile: ScopedStore<ProfileReducer>? = parent.scope(\.profile, reducer: ProfileReducer())
    let started = Gate()
    let task = profile?.task(key: TaskKey("wait")) {
      started.open()
      try await Task.sleep(for: .seconds(60))
    }
    await started.wait()
    XCTAssertEqual(profile?.taskManager.count(key: TaskKey("wait")), 1)
    profile = nil
    let result = await task?.result
    XCTAssertThrowsError(try result?.get()) { XCTAssertTrue($0 is CancellationError) }
  }

  func testScopesOfScopes() async throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let address = parent.scope(\.profile, reducer: ProfileReducer()).scope(\.address, reducer: AddressReducer())
    try address.commit { $0.move(to: "Kyoto") }
    XCTAssertEqual(parent.state.profile.address.city, "Kyoto")
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    let name = try await profile.dispatch { $0.renameLater("Lin") }
    XCTAssertEqual(name, "Lin")
    XCTAssertEqual(parent.state.profile, Profile(name: "Lin", address: Address(city: "Kyoto")))
  }

  func testThousandsOfScopesAreCheap() throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let clock = ContinuousClock()
    let start = clock.now
    let scopes = (0..<10_000).map { _ in parent.scope(\.profile, reducer: ProfileReducer()) }
    for _ in 0..<1_000 { parent.commit { $0.unrelated += 1 } }
    try scopes[9_999].commit { $0.rename("last") }
    XCTAssertEqual(parent.state.profile.name, "last")
    XCTAssertLessThan(clock.now - start, .seconds(5))
  }

  func testUsingAScopeWhoseParentIsGoneFailsClearly() async {
    var parent: Store<AppState, Never>? = Store(initialState: AppState())
    let profile = parent!.scope(\.profile, reducer: ProfileReducer())
    parent = nil
    XCTAssertThrowsError(try profile.commit { $0.rename("x") }) { error in
      XCTAssertEqual(error as? NeueError, .parentReleased)
    }
    XCTAssertThrowsError(try profile.state)
    XCTAssertThrowsError(try profile.sinkState { _ in })
    do {
      _ = try await profile.dispatch { $0.renameLater("x") }
      XCTFail("dispatch should throw")
    } catch {
      XCTAssertEqual(error as? NeueError, .parentReleased)
      XCTAssertTrue("\(error)".contains("parent store"))
    }
  }
}

final class AppReducer: ReducerType {
  typealias TargetState = AppState
  func bumpUnrelated() -> Mutation { .init { $0.unrelated += 1 } }
}
