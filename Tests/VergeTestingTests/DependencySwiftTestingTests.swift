import Testing
import VergeTesting

/// In a Swift Testing test, a dependency used without a test value is
/// recorded as an issue where it was used.
@Suite struct DependencySwiftTestingTests {
  struct Feature: ActionReducer {
    @Dependency(\.meaning) var meaning
    func reduce(into state: inout Int, action: Void) -> Effect<Void, Never> {
      state = meaning
      return .none
    }
  }

  @Test func aDependencyWithoutATestValueIsRecordedAsAnIssueWhereItIsUsed() async {
    let matched = MatchedIssues()
    let line = #line - 9
    let store = ActionStore(initialState: 0, reducer: Feature())
    withKnownIssue {
      store.send(())
    } matching: { matched.match($0) }
    #expect(matched.all.count == 1)
    #expect(matched.all.first?.line == line)
    #expect(matched.all.first?.message.contains("MeaningKey") == true)
    #expect(matched.all.first?.message.contains("withDependencies: { $0.meaning = … }") == true)
  }

  struct KeyFeature: ActionReducer {
    @Dependency(MeaningKey.self) var meaning
    func reduce(into state: inout Int, action: Void) -> Effect<Void, Never> {
      state = meaning
      return .none
    }
  }

  @Test func aDependencyReadByKeyWithoutATestValueIsRecordedAsAnIssueWhereItIsUsed() async {
    let matched = MatchedIssues()
    let line = #line - 9
    let store = ActionStore(initialState: 0, reducer: KeyFeature())
    withKnownIssue {
      store.send(())
    } matching: { matched.match($0) }
    #expect(matched.all.count == 1)
    #expect(matched.all.first?.line == line)
    #expect(matched.all.first?.message.contains("MeaningKey") == true)
    #expect(matched.all.first?.message.contains("withDependencies: { $0.meaning = … }") == true)
  }

  @Test func aTestStoreUsesTestValuesAndItsOverrides() async {
    let store = TestStore(initialState: .init(), reducer: GreetingFeature()) { $0.greeter = .named("mine") }
    await store.send(.greet) { $0.seen = ["mine"] }
    await store.send(.greetLater)
    await store.receive(.greeted("mine")) { $0.seen = ["mine", "mine"] }
    await store.finish()
    let defaults = TestStore(initialState: .init(), reducer: GreetingFeature())
    await defaults.send(.greet) { $0.seen = ["test"] }
    await defaults.finish()
  }
}
