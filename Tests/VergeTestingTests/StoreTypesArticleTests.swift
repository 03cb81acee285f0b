import Verge
import VergeNeue
import VergeTesting
import XCTest

/// The "Types you name" article: its snippet, as written there, over the
/// README's inbox, and every type of its table written out in a signature.
final class StoreTypesArticleTests: XCTestCase {
  typealias Message = ReadmeListsTests.Message
  typealias MessageFeature = ReadmeListsTests.MessageFeature
  typealias InboxFeature = ReadmeListsTests.InboxFeature

  // From the article:
  func inboxFeature() -> some ActionReducer<InboxFeature.State, InboxFeature.Action> {
    InboxFeature().forEach(\.messages, action: InboxFeature.messageCase, element: MessageFeature())
  }

  func makeInbox(
    _ messages: [Message], onEffectError: @escaping @Sendable (EffectFailure<InboxFeature.Action>) -> Void
  ) -> ActionStore<Composed<InboxFeature>> {
    ActionStore(
      initialState: InboxFeature.State(messages: IdentifiedArrayOf(uniqueElements: messages)),
      reducer: InboxFeature().forEach(\.messages, action: InboxFeature.messageCase, element: MessageFeature()),
      onEffectError: onEffectError)
  }

  func row(_ id: Int, of inbox: ActionStore<Composed<InboxFeature>>)
    -> ScopedActionStore<Message?, MessageFeature.Action, Never>
  {
    inbox.scope(state: \.messages[id: id], action: { .message(id: id, action: $0) })
  }

  func unreadCount<Activity>(_ store: some ReadableStore<InboxFeature.State, Activity>) -> Int {
    store.state.messages.filter { !$0.isRead }.count
  }

  func testTheSnippetComposesScopesAndReads() {
    let messages = (0..<10).map { Message(id: $0, text: "Message \($0)") }
    let inbox = makeInbox(messages, onEffectError: { _ in })
    let third = row(3, of: inbox)
    third.send(.markRead)
    XCTAssertEqual(inbox.state.messages[id: 3]?.isRead, true)
    XCTAssertEqual(third.state.current?.isRead, true)
    XCTAssertEqual(unreadCount(inbox), 9)

    // A store of the opaque feature reduces the same way.
    let opaque = ActionStore(
      initialState: InboxFeature.State(messages: IdentifiedArrayOf(uniqueElements: messages)),
      reducer: inboxFeature())
    opaque.send(.message(id: 4, action: .markRead))
    opaque.send(.removeRead)
    XCTAssertEqual(unreadCount(opaque), 9)
    XCTAssertNil(opaque.state.messages[id: 4])
  }

  // The table's other rows, each written in a signature.
  struct Counter: Equatable, Sendable { var count = 0 }

  final class CounterReducer: ReducerType {
    typealias TargetState = Counter
    func increment() -> Mutation { .init { $0.count += 1 } }
  }

  struct CounterFeature: ActionReducer {
    typealias State = Counter
    enum Action: Sendable, Equatable { case increment }
    func reduce(into state: inout Counter, action: Action) -> Effect<Action, Activity> {
      state.count += 1
      return .none
    }
  }

  func methodReducer() -> some ReducerType<Counter> { CounterReducer() }
  func anyFeature() -> any ActionReducer<Counter, CounterFeature.Action> { CounterFeature() }

  func testEveryNamedTypeIsWhatTheStoresReturn() async throws {
    let store: Store<Counter, Never> = Store(initialState: Counter())
    let snapshot: StateSnapshot<Counter> = store.state
    let delivered = SharedLock<[Int]>([])
    let subscription: VergeAnyCancellable = store.sinkState { (changes: Changes<Counter>) in
      delivered.withLock { $0.append(changes.count) }
    }
    let plain: StoreSubscription = subscription
    let doubled: Derived<Int> = store.derived(.map { $0.count * 2 })
    let binding: BindingDerived<Int> = store.bindingDerived(get: .select(\.count), set: { $0.count = $1 })
    let changes: ChangesSequence<Counter> = store.changes
    let activities: AsyncStream<Never> = store.activities()
    let task: Task<Void, any Error> = store.task { store.commit { $0.count += 1 } }
    try await task.value
    binding.wrappedValue = 10
    XCTAssertEqual(snapshot.count, 0)
    XCTAssertEqual(doubled.value, 20)
    XCTAssertEqual(delivered.withLock { $0 }, [0, 1, 10])
    plain.cancel()
    _ = (changes, activities)

    let methods: ReducerStore<CounterReducer> = ReducerStore(initialState: Counter(), reducer: CounterReducer())
    methods.commit { $0.increment() }
    XCTAssertEqual(methods.state.count, 1)

    struct Pair: Equatable, Sendable { var left = Counter(); var right = Counter() }
    let pair = Store<Pair, Never>(initialState: Pair())
    let methodScope: ScopedStore<CounterReducer> = pair.scope(\.left, reducer: CounterReducer())
    let actionScope: ScopedActionStore<Counter, CounterFeature.Action, Never> =
      pair.scope(\.right, reducer: CounterFeature())
    methodScope.commit { $0.increment() }
    actionScope.send(.increment)
    XCTAssertEqual(pair.state.current, Pair(left: Counter(count: 1), right: Counter(count: 1)))

    let middleware: Middleware<CounterFeature.Action, Counter> = .logging { _ in }
    let commitMiddleware: CommitMiddleware<Counter> = .logging { _ in }
    let actions: ActionStore<CounterFeature> = ActionStore(
      initialState: Counter(), reducer: CounterFeature(), middlewares: [middleware],
      commitMiddlewares: [commitMiddleware])
    let sent: StoreTask = actions.send(.increment)
    await sent.finish()
    var scratch = Counter()
    let effect: Effect<CounterFeature.Action, Never> = CounterFeature().reduce(into: &scratch, action: .increment)
    _ = effect
    XCTAssertEqual(scratch.count, 1)
    XCTAssertEqual(actions.state.count, 1)
    XCTAssertEqual(methodReducer() is CounterReducer, true)
    XCTAssertTrue(anyFeature() is CounterFeature)

    let test: TestStore<CounterFeature> = TestStore(initialState: Counter(), reducer: CounterFeature())
    await test.send(.increment) { $0.count = 1 }
    await test.finish()
  }
}
