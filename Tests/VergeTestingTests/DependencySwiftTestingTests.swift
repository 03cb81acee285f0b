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
    expectOneMissingValueIssue(sending: Feature(), usedAt: #line - 8)
  }

  struct KeyFeature: ActionReducer {
    @Dependency(MeaningKey.self) var meaning
    func reduce(into state: inout Int, action: Void) -> Effect<Void, Never> {
      state = meaning
      return .none
    }
  }

  @Test func aDependencyReadByKeyWithoutATestValueIsRecordedAsAnIssueWhereItIsUsed() async {
    expectOneMissingValueIssue(sending: KeyFeature(), usedAt: #line - 8)
  }

  /// Sends one action to a store of `reducer`, which reads `meaning` at
  /// `line`, and expects one issue there naming the key and the override.
  private func expectOneMissingValueIssue<Reducer: ActionReducer>(
    sending reducer: Reducer, usedAt line: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) where Reducer.State == Int, Reducer.Action == Void {
    let matched = MatchedIssues()
    let store = ActionStore(initialState: 0, reducer: reducer)
    withKnownIssue {
      store.send(())
    } matching: { matched.match($0) }
    #expect(matched.all.count == 1, sourceLocation: sourceLocation)
    #expect(matched.all.first?.line == line, sourceLocation: sourceLocation)
    #expect(matched.all.first?.message.contains("MeaningKey") == true, sourceLocation: sourceLocation)
    #expect(
      matched.all.first?.message.contains("withDependencies: { $0.meaning = … }") == true,
      sourceLocation: sourceLocation)
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
