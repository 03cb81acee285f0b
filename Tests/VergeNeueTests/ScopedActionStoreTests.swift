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

/// Enum actions on `AppState`, for a root `ActionStore`; the features of
/// its parts are embedded by `appFeature(gate:)`.
struct AppFeature: ActionReducer {
  typealias State = AppState
  enum Action: Sendable, Equatable {
    case bumpUnrelated
    case profile(ProfileFeature.Action)
    case address(AddressFeature.Action)
  }

  static let profileCase = ActionCase<Action, ProfileFeature.Action>(Action.profile) {
    if case .profile(let action) = $0 { action } else { nil }
  }
  static let addressCase = ActionCase<Action, AddressFeature.Action>(Action.address) {
    if case .address(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout AppState, action: Action) -> Effect<Action, Activity> {
    if case .bumpUnrelated = action { state.unrelated += 1 }
    return .none
  }
}

/// The app feature with the profile and the address features embedded.
func appFeature(gate: Gate = Gate()) -> Composed<Composed<AppFeature>> {
  AppFeature()
    .embed(ProfileFeature(gate: gate), state: \.profile, action: AppFeature.profileCase)
    .embed(AddressFeature(), state: \.profile.address, action: AppFeature.addressCase)
}

final class ScopedActionStoreTests: XCTestCase {
  func testSendChangesTheRootInPlaceAndRootSubscribersSeeIt() throws {
    let parent = ActionStore(initialState: AppState(), reducer: appFeature())
    let names = Collected<String>()
    parent.sinkState(dropsFirst: true) { names.append($0.profile.name) }.storeWhileSourceActive()
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
    profile.send(.rename("Ada"))
    XCTAssertEqual(parent.state.profile.name, "Ada")
    XCTAssertEqual(profile.state.name, "Ada")
    XCTAssertEqual(names.all, ["Ada"])
  }

  func testTheRootsPipelineSeesWhatAScopeSends() async throws {
    let actions = Collected<AppFeature.Action>()
    let seeing = Middleware<AppFeature.Action, AppState>(name: "seeing") { step in
      actions.append(step.message)
      _ = step.next()
    }
    let recorder = Recorder<AppFeature.Action, AppState>()
    let undo = try UndoHistory<AppState>(limit: 10)
    let commitNames = Collected<String>()
    let parent = ActionStore(
      initialState: AppState(), reducer: appFeature(),
      middlewares: [seeing, recorder.middleware(), undo.middleware()],
      commitMiddlewares: [CommitMiddleware(name: "names") { _, _, trace in commitNames.append(trace.name) }])
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
    await profile.send(.rename("Ada")).finish()
    XCTAssertEqual(actions.all, [.profile(.rename("Ada"))])
    XCTAssertEqual(recorder.recording.messages, [.profile(.rename("Ada"))])
    XCTAssertEqual(commitNames.all, ["profile(VergeNeueTests.ProfileFeature.Action.rename(\"Ada\"))"])
    XCTAssertTrue(undo.undo(in: parent.core))
    XCTAssertEqual(parent.state.profile.name, "")
  }

  func testNotifiesOnlyWhenItsFragmentChanges() throws {
    let parent = ActionStore(initialState: AppState(), reducer: appFeature())
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
    let seen = Collected<String>()
    profile.sinkState { seen.append($0.name) }.storeWhileSourceActive()
    parent.send(.bumpUnrelated)
    parent.send(.bumpUnrelated)
    profile.send(.rename("Grace"))
    XCTAssertEqual(seen.all, ["", "Grace"])
    XCTAssertEqual(profile.derived(.map { $0.name.count }).value, 5)
  }

  func testChangesSequenceCarriesOnlyTheFragmentsChanges() async throws {
    let parent = ActionStore(initialState: AppState(), reducer: appFeature())
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
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
    let parent = ActionStore(initialState: AppState(), reducer: appFeature())
    var profile: ScopedActionStore<Profile, ProfileFeature.Action, Never>? =
      parent.scope(state: \.profile, action: AppFeature.Action.profile)
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

  func testEffectsRunInTheRootAndSendTheirActionsBackThroughIt() async throws {
    let gate = Gate()
    let parent = ActionStore(initialState: AppState(), reducer: appFeature(gate: gate))
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
    let task = profile.send(.renameAfterGate("Lin"))
    XCTAssertEqual(parent.effectsInFlight, 1)
    gate.open()
    await task.finish()
    await parent.waitUntilIdle()
    XCTAssertEqual(parent.state.profile.name, "Lin")
    XCTAssertEqual(parent.effectsInFlight, 0)
  }

  func testEffectsCanBeCancelledByID() async throws {
    let gate = Gate()
    let parent = ActionStore(initialState: AppState(), reducer: appFeature(gate: gate))
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
    let task = profile.send(.renameAfterGate("never"))
    profile.send(.cancelRename)
    gate.open()
    await task.finish()
    await parent.waitUntilIdle()
    XCTAssertEqual(parent.state.profile.name, "")
  }

  func testReentrantSendFromASubscriberIsQueuedInOrder() throws {
    let parent = ActionStore(initialState: AppState(), reducer: appFeature())
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
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

  func testScopesOfScopes() throws {
    let parent = ActionStore(initialState: AppState(), reducer: appFeature())
    let profile = parent.scope(state: \.profile, action: AppFeature.Action.profile)
    let address = parent.scope(state: \.profile.address, action: AppFeature.Action.address)
    address.send(.move("Kyoto"))
    XCTAssertEqual(parent.state.profile.address.city, "Kyoto")
    let cities = Collected<String>()
    address.sinkState(dropsFirst: true) { cities.append($0.city) }.storeWhileSourceActive()
    profile.send(.rename("Ada"))
    XCTAssertEqual(cities.all, [], "a change beside the address does not notify the address scope")

    let nested = profile.scope(state: \.address) { (move: AddressFeature.Action) in ProfileFeature.Action.rename("\(move)") }
    nested.send(.move("Oslo"))
    XCTAssertEqual(parent.state.profile.name, "move(\"Oslo\")", "a scope of a scope wraps twice and sends to the root")
    XCTAssertEqual(nested.state.city, "Kyoto")
  }

  func testThousandsOfScopesSubscribeNothingAndKeepOnlyTheirRootAlive() throws {
    var parent: ActionStore<Composed<Composed<AppFeature>>>? = ActionStore(initialState: AppState(), reducer: appFeature())
    weak let weakParent = parent
    var scopes = (0..<2_000).map { _ in parent!.scope(state: \.profile, action: AppFeature.Action.profile) }
    var nested = scopes.prefix(100).map { $0.scope(state: \.address) { ProfileFeature.Action.rename("\($0 as Int)") } }
    XCTAssertTrue(scopes.allSatisfy { !$0.fragment.isFollowing }, "making a scope must not subscribe")
    XCTAssertTrue(nested.allSatisfy { !$0.fragment.isFollowing })
    for _ in 0..<100 { parent!.send(.bumpUnrelated) }
    scopes[1_999].send(.rename("last"))
    nested[99].send(7)
    XCTAssertEqual(parent!.state.profile.name, "7")
    XCTAssertTrue(scopes.allSatisfy { !$0.fragment.isFollowing }, "sending must not subscribe either")
    _ = scopes[0].sinkState { _ in }
    XCTAssertTrue(scopes[0].fragment.isFollowing)
    XCTAssertFalse(scopes[1].fragment.isFollowing)
    parent = nil
    XCTAssertNotNil(weakParent, "scopes keep their root alive")
    scopes = []
    XCTAssertNotNil(weakParent, "a scope of a scope keeps the root alive too")
    nested = []
    XCTAssertNil(weakParent, "the root goes with its last scope")
  }
}
