import Verge
import VergeTestSupport
import XCTest

@testable import VergeNeue

/// Reads any store shape the same way: the one read API.
private func profileName<S: ReadableStore>(_ store: S) -> String where S.State == Profile {
  store.state.name
}

/// Subscribes to any store shape the same way.
private func watch<S: ReadableStore>(_ store: S, into names: Collected<String>) -> StoreSubscription
where S.State == Profile {
  store.sinkState(dropsFirst: true) { names.append($0.name) }
}

private final class ProfileModel: StoreComponentType {
  let store = Store<Profile, Never>(initialState: Profile())
}

final class ReadableStoreTests: XCTestCase {
  func testEveryStoreShapeReadsThroughTheSameAPI() {
    let core = Store<Profile, Never>(initialState: Profile(name: "core"))
    let reducer = ReducerStore(initialState: AppState(), reducer: AppReducer())
    let methodScope = reducer.scope(\.profile, reducer: ProfileReducer())
    let actions = ActionStore(initialState: AppState(), reducer: appFeature())
    let actionScope = actions.scope(state: \.profile, action: AppFeature.Action.profile)
    let model = ProfileModel()

    XCTAssertEqual(profileName(core), "core")
    XCTAssertEqual(profileName(methodScope), "")
    XCTAssertEqual(profileName(actionScope), "")
    XCTAssertEqual(profileName(model), "")

    let names = Collected<String>()
    let subscriptions = [watch(core, into: names), watch(methodScope, into: names), watch(actionScope, into: names), watch(model, into: names)]
    core.commit { $0.name = "a" }
    methodScope.commit { $0.rename("b") }
    actionScope.send(.rename("c"))
    model.commit { $0.name = "d" }
    XCTAssertEqual(names.all, ["a", "b", "c", "d"])
    withExtendedLifetime(subscriptions) {}
  }

  func testAScopesVersionIsItsRootsAndGrowsWithItsChanges() {
    let root = ReducerStore(initialState: AppState(), reducer: AppReducer())
    let profile = root.scope(\.profile, reducer: ProfileReducer())
    let before = profile.version
    XCTAssertEqual(before, root.version)
    profile.commit { $0.rename("Ada") }
    XCTAssertGreaterThan(profile.version, before)
    XCTAssertEqual(profile.version, root.version)
  }

  func testAScopesActivitiesAreItsRootsOfItsType() async {
    let root = Store<NoticeRoot, Notice>(initialState: NoticeRoot())
    let profile = root.scope(\.profile, reducer: GreetingReducer())
    var activities = profile.activities().makeAsyncIterator()
    root.send(.greeted("root"))
    let first = await activities.next()
    XCTAssertEqual(first, .greeted("root"))
  }
}
