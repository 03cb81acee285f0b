import VergeTestSupport
import XCTest

@testable import VergeNeue

/// Enum actions on `Profile`, for scoping into `AppState.profile`.
struct ProfileFeature: ActionReducer {
  typealias State = Profile

  enum Action: Sendable, Equatable {
    case rename(String)
    case renameAfterGate(String)
    case cancelRename
  }

  let gate: Gate

  func reduce(into state: inout Profile, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .rename(let name):
      state.name = name
      return .none
    case .renameAfterGate(let name):
      return .run { [gate] send in
        await gate.wait()
        send(.rename(name))
      }
      .cancellable(id: "rename")
    case .cancelRename:
      return .cancel(id: "rename")
    }
  }
}

/// Enum actions on `Address`, for scopes of scopes.
struct AddressFeature: ActionReducer {
  typealias State = Address
  enum Action: Sendable, Equatable { case move(String) }

  func reduce(into state: inout Address, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .move(let city): state.city = city
    }
    return .none
  }
}

/// Enum actions on `AppState`, for a root `ActionStore`.
struct AppFeature: ActionReducer {
  typealias State = AppState
  enum Action: Sendable, Equatable { case bumpUnrelated }

  func reduce(into state: inout AppState, action: Action) -> Effect<Action, Activity> {
    state.unrelated += 1
    return .none
  }
}

final class ScopedActionStoreTests: XCTestCase {
  func testSendChangesTheParentInPlaceAndParentSubscribersSeeIt() throws {
    let parent = ActionStore(initialState: AppState(), reducer: AppFeature())
    let names = Collected<String>()
    parent.sinkState(dropsFirst: true) { names.append($0.profile.name) }.storeWhileSourceActive()
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
    profile.send(.rename("Ada"))
    XCTAssertEqual(parent.state.profile.name, "Ada")
    XCTAssertEqual(profile.state.name, "Ada")
    XCTAssertEqual(names.all, ["Ada"])
  }

  func testCommitMiddlewaresOfTheParentSeeTheActionsName() throws {
    let names = Collected<String>()
    let parent = Store<AppState, Never>(
      initialState: AppState(),
      middlewares: [CommitMiddleware<AppState>(name: "names") { _, _, trace in names.append(trace.name) }])
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
    profile.send(.rename("Ada"))
    XCTAssertEqual(names.all, ["rename(\"Ada\")"])
  }

  func testNotifiesOnlyWhenItsFragmentChanges() throws {
    let parent = ActionStore(initialState: AppState(), reducer: AppFeature())
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
    let seen = Collected<String>()
    profile.sinkState { seen.append($0.name) }.storeWhileSourceActive()
    parent.send(.bumpUnrelated)
    parent.send(.bumpUnrelated)
    profile.send(.rename("Grace"))
    XCTAssertEqual(seen.all, ["", "Grace"])
    XCTAssertEqual(profile.derived(.map { $0.name.count }).value, 5)
  }

  func testChangesSequenceCarriesOnlyTheFragmentsChanges() async throws {
    let parent = ActionStore(initialState: AppState(), reducer: AppFeature())
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
    var changes = profile.changes.makeAsyncIterator()
    let first = await changes.next()
    XCTAssertEqual(first?.current.name, "")
    parent.send(.bumpUnrelated)
    profile.send(.rename("Ada"))
    let second = await changes.next()
    XCTAssertEqual(second?.previous?.name, "")
    XCTAssertEqual(second?.current.name, "Ada")
  }

  func testTasksBelongToTheScopeAndEndWithIt() async throws {
    let parent = ActionStore(initialState: AppState(), reducer: AppFeature())
    var profile: ScopedActionStore<ProfileFeature>? = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
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

  func testEffectsRunAndSendTheirActionsToTheScope() async throws {
    let gate = Gate()
    let parent = Store<AppState, Never>(initialState: AppState())
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: gate))
    let task = profile.send(.renameAfterGate("Lin"))
    XCTAssertEqual(profile.effectsInFlight, 1)
    gate.open()
    await task.finish()
    await profile.waitUntilIdle()
    XCTAssertEqual(parent.state.profile.name, "Lin")
    XCTAssertEqual(profile.effectsInFlight, 0)
  }

  func testEffectsCanBeCancelledByID() async throws {
    let gate = Gate()
    let parent = Store<AppState, Never>(initialState: AppState())
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: gate))
    let task = profile.send(.renameAfterGate("never"))
    profile.send(.cancelRename)
    gate.open()
    await task.finish()
    await profile.waitUntilIdle()
    XCTAssertEqual(parent.state.profile.name, "")
  }

  func testReentrantSendFromASubscriberIsQueuedInOrder() throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
    let seen = Collected<String>()
    profile.sinkState(dropsFirst: true) { changes in
      seen.append(changes.name)
      if changes.name == "first" { _ = profile.send(.rename("second")) }
    }
    .storeWhileSourceActive()
    profile.send(.rename("first"))
    XCTAssertEqual(seen.all, ["first", "second"])
    XCTAssertEqual(parent.state.profile.name, "second")
  }

  func testScopesOfScopesOfBothShapes() throws {
    let parent = ActionStore(initialState: AppState(), reducer: AppFeature())
    let profile = parent.scope(\.profile, reducer: ProfileFeature(gate: Gate()))
    let address = profile.scope(\.address, reducer: AddressFeature())
    address.send(.move("Kyoto"))
    XCTAssertEqual(parent.state.profile.address.city, "Kyoto")
    let cities = Collected<String>()
    address.sinkState(dropsFirst: true) { cities.append($0.city) }.storeWhileSourceActive()
    profile.send(.rename("Ada"))
    XCTAssertEqual(cities.all, [], "a change beside the address does not notify the address scope")

    let methodAddress = profile.scope(\.address, reducer: AddressReducer())
    methodAddress.commit { $0.move(to: "Oslo") }
    XCTAssertEqual(cities.all, ["Oslo"])

    let enumAddress = parent.scope(\.profile, reducer: ProfileReducer()).scope(\.address, reducer: AddressFeature())
    enumAddress.send(.move("Lima"))
    XCTAssertEqual(parent.state.profile, Profile(name: "Ada", address: Address(city: "Lima")))
  }

  func testThousandsOfScopesSubscribeNothingAndKeepOnlyTheirRootAlive() throws {
    var parent: Store<AppState, Never>? = Store(initialState: AppState())
    weak let weakParent = parent
    var scopes = (0..<2_000).map { _ in parent!.scope(\.profile, reducer: ProfileFeature(gate: Gate())) }
    var nested = scopes.prefix(100).map { $0.scope(\.address, reducer: AddressFeature()) }
    XCTAssertTrue(scopes.allSatisfy { !$0.follower.isFollowing }, "making a scope must not subscribe")
    XCTAssertTrue(nested.allSatisfy { !$0.follower.isFollowing })
    for _ in 0..<100 { parent!.commit { $0.unrelated += 1 } }
    scopes[1_999].send(.rename("last"))
    nested[99].send(.move("Rome"))
    XCTAssertEqual(parent!.state.profile, Profile(name: "last", address: Address(city: "Rome")))
    XCTAssertTrue(scopes.allSatisfy { !$0.follower.isFollowing }, "sending must not subscribe either")
    _ = scopes[0].sinkState { _ in }
    XCTAssertTrue(scopes[0].follower.isFollowing)
    XCTAssertFalse(scopes[1].follower.isFollowing)
    parent = nil
    XCTAssertNotNil(weakParent, "scopes keep their root alive")
    scopes = []
    XCTAssertNotNil(weakParent, "a scope of a scope keeps the root alive too")
    nested = []
    XCTAssertNil(weakParent, "the root goes with its last scope")
  }

  func testAScopeKeepsTheActionStoreItWasCutFromAlive() async throws {
    var parent: ActionStore<AppFeature>? = ActionStore(initialState: AppState(), reducer: AppFeature())
    weak let weakParent = parent
    let core = parent!.core
    let gate = Gate()
    let profile = parent!.scope(\.profile, reducer: ProfileFeature(gate: gate))
    let running = profile.send(.renameAfterGate("late"))
    parent = nil
    XCTAssertNotNil(weakParent, "the scope keeps its root store, not only the core, alive")
    profile.send(.rename("x"))
    XCTAssertEqual(profile.state.name, "x")
    XCTAssertEqual(profile.derived(.map { $0.name }).value, "x")
    gate.open()
    await running.finish()
    await profile.waitUntilIdle()
    XCTAssertEqual(core.state.profile.name, "late", "an effect started before still lands in the root")
  }
}
