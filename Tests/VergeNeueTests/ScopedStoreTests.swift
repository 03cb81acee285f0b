import Synchronization
@testable import VergeNeue
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
    profile.commit { $0.rename("Ada") }
    XCTAssertEqual(parent.state.profile.name, "Ada")
    XCTAssertEqual(profile.state.name, "Ada")
    XCTAssertEqual(names.all, ["Ada"])
  }

  func testItsMutationsAndActionsGoThroughTheRootsPipeline() async throws {
    let names = Collected<String>()
    let seeing = Middleware<ReducerMessage<AppState>, AppState>(name: "seeing") { step in
      if case .mutation(let mutation) = step.message { names.append(mutation.name) }
      _ = step.next()
    }
    let recorder = Recorder<ReducerMessage<AppState>, AppState>()
    let undo = try UndoHistory<AppState>(limit: 10)
    let parent = ReducerStore(
      initialState: AppState(), reducer: AppReducer(), middlewares: [seeing, recorder.middleware(), undo.middleware()])
    let address = parent.scope(\.profile, reducer: ProfileReducer()).scope(\.address, reducer: AddressReducer())
    address.commit { $0.move(to: "Kyoto") }
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    let name = try await profile.dispatch { $0.renameLater("Ada") }
    XCTAssertEqual(name, "Ada")
    XCTAssertEqual(names.all, ["move(to:)", "rename(_:)"], "the root's middleware sees each mutation by its own name")
    XCTAssertEqual(recorder.recording.messages.count, 3, "the recorder sees both mutations and the action")
    let replayed = ReducerStore(initialState: AppState(), reducer: AppReducer())
    try replayed.replay(recorder.recording)
    XCTAssertEqual(replayed.state.profile, Profile(name: "Ada", address: Address(city: "Kyoto")))
    XCTAssertTrue(undo.undo(in: parent.core))
    XCTAssertEqual(parent.state.profile, Profile(name: "", address: Address(city: "Kyoto")))
  }

  func testNotifiesOnlyWhenItsFragmentChanges() throws {
    let parent = ReducerStore(initialState: AppState(), reducer: AppReducer())
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    let seen = Collected<String>()
    profile.sinkState { seen.append($0.name) }.storeWhileSourceActive()
    parent.commit { $0.bumpUnrelated() }
    parent.commit { $0.bumpUnrelated() }
    profile.commit { $0.rename("Grace") }
    XCTAssertEqual(seen.all, ["", "Grace"])
    let length = profile.derived(.map { $0.name.count })
    XCTAssertEqual(length.value, 5)
  }

  func testChangesSequenceCarriesOnlyTheFragmentsChanges() async throws {
    let parent = ReducerStore(initialState: AppState(), reducer: AppReducer())
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    var changes = profile.changes.makeAsyncIterator()
    let first = await changes.next()
    XCTAssertEqual(first?.current.name, "")
    parent.commit { $0.bumpUnrelated() }
    profile.commit { $0.rename("Ada") }
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
    address.commit { $0.move(to: "Kyoto") }
    XCTAssertEqual(parent.state.profile.address.city, "Kyoto")
    let profile = parent.scope(\.profile, reducer: ProfileReducer())
    let name = try await profile.dispatch { $0.renameLater("Lin") }
    XCTAssertEqual(name, "Lin")
    XCTAssertEqual(parent.state.profile, Profile(name: "Lin", address: Address(city: "Kyoto")))
  }

  func testThousandsOfScopesAreCheap() throws {
    let parent = Store<AppState, Never>(initialState: AppState())
    let scopes = (0..<10_000).map { _ in parent.scope(\.profile, reducer: ProfileReducer()) }
    for _ in 0..<1_000 { parent.commit { $0.unrelated += 1 } }
    scopes[9_999].commit { $0.rename("last") }
    XCTAssertEqual(parent.state.profile.name, "last")
    XCTAssertTrue(scopes.allSatisfy { !$0.fragment.isFollowing }, "making or committing through a scope must not subscribe")
  }

  func testAScopeKeepsItsRootAliveAndReadsLikeIt() async throws {
    var parent: ReducerStore<AppReducer>? = ReducerStore(initialState: AppState(), reducer: AppReducer())
    weak let weakParent = parent
    let core = parent!.core
    var profile: ScopedStore<ProfileReducer>? = parent!.scope(\.profile, reducer: ProfileReducer())
    let address = profile!.scope(\.address, reducer: AddressReducer())
    parent = nil
    XCTAssertNotNil(weakParent, "a scope keeps the store it was cut from alive")
    profile!.commit { $0.rename("x") }
    XCTAssertEqual(profile!.state.name, "x")
    XCTAssertEqual(profile!.derived(.map { $0.name.count }).value, 1)
    let name = try await profile!.dispatch { $0.renameLater("y") }
    XCTAssertEqual(name, "y")
    XCTAssertEqual(core.state.profile.name, "y")
    profile = nil
    XCTAssertNotNil(weakParent, "a scope of a scope keeps the root alive too")
    address.commit { $0.move(to: "Kyoto") }
    XCTAssertEqual(core.state.profile.address.city, "Kyoto")
  }

  func testTheRootGoesWithItsLastScope() {
    var parent: Store<AppState, Never>? = Store(initialState: AppState())
    weak let weakParent = parent
    var profile: ScopedStore<ProfileReducer>? = parent!.scope(\.profile, reducer: ProfileReducer())
    profile!.sinkState { _ in }.storeWhileSourceActive()
    parent = nil
    XCTAssertNotNil(weakParent)
    profile = nil
    XCTAssertNil(weakParent, "a subscription to the scope must not keep the root alive")
  }
}

final class AppReducer: ReducerType {
  typealias TargetState = AppState
  func bumpUnrelated() -> Mutation { .init { $0.unrelated += 1 } }
}
